package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.snowflake.TestSnowflake;
import io.skippr.sinks.snowflake.fake.FakeSnowflake;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Snowflake sink against the fake Snowflake ({@code FakeSnowflake}: the official driver's
 * HTTP/JSON protocol in front of a database of its own on the test PostgreSQL, internal stages on
 * the test S3Proxy), in a schema of its own. Rows are read from the PostgreSQL database behind the
 * fake, where they have their stored types.
 */
final class SnowflakeFixture implements SinkFixture {
    private final TestSnowflake snowflake;
    private final String schema =
            "skippr_kit_sf_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    SnowflakeFixture() throws Exception {
        snowflake = new TestSnowflake();
    }

    @Override
    public String kind() {
        return "Snowflake";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return snowflake.sinkYaml(schema, "KIT_DST_PW");
    }

    @Override
    public Map<String, String> env() {
        return Map.of("KIT_DST_PW", TestSnowflake.PASSWORD);
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws SQLException {
        try (Connection c = snowflake.backing();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "SELECT * FROM \""
                                                + schema
                                                + "\".\""
                                                + FakeSnowflake.backingName(table(stream))
                                                        .replace("\"", "\"\"")
                                                + "\"")) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(
                            FakeSnowflake.snowflakeName(meta.getColumnLabel(i)),
                            value(rs, i, meta.getColumnTypeName(i)));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            if (Set.of("42P01", "3F000").contains(e.getSQLState())) {
                return List.of();
            }
            throw e;
        }
    }

    private static Object value(ResultSet rs, int i, String type) throws SQLException {
        return switch (type) {
            case "time" -> rs.getObject(i, LocalTime.class);
            case "timestamp" -> rs.getObject(i, LocalDateTime.class);
            case "timestamptz" -> rs.getObject(i, OffsetDateTime.class);
            default -> rs.getObject(i);
        };
    }

    /** docs/connectors/snowflake.md: replace deletes and inserts in the commit's transaction. */
    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge", "replace");
    }

    /** Skippr loads the years 1 to 9999 into Snowflake; others are load deadletters. */
    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    @Override
    public boolean commitsARunAtOnce() {
        return true;
    }

    /** Snowflake enforces no CHECK constraint nor key: no rule of a user's refuses a row. */
    @Override
    public String refuse(Path dir, String stream, Set<Long> ids) {
        return null;
    }

    @Override
    public void close() throws Exception {
        snowflake.close();
    }
}
