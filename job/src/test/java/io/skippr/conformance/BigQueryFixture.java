package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.bigquery.fake.FakeBigQuery;
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
 * The BigQuery sink against the fake BigQuery ({@code FakeBigQuery}: the REST API and the Storage
 * Write gRPC service, backed by the test PostgreSQL), in a dataset of its own. Rows are read from
 * the fake's backing tables, where BigQuery's types are PostgreSQL's (names over 63 bytes under the
 * fake's stand-ins, mapped back; JSON read as its text).
 */
final class BigQueryFixture implements SinkFixture {
    private final FakeBigQuery fake;
    private final String dataset =
            "skippr_kit_bq_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    BigQueryFixture() throws Exception {
        fake = FakeBigQuery.start();
    }

    @Override
    public String kind() {
        return "BigQuery";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return fake.sinkYaml("skippr-kit", dataset);
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws SQLException {
        try (Connection c = fake.backing()) {
            try (ResultSet rs =
                    c.createStatement()
                            .executeQuery(
                                    "SELECT * FROM \""
                                            + dataset
                                            + "\".\""
                                            + FakeBigQuery.backingName(table(stream))
                                                    .replace("\"", "\"\"")
                                            + "\"")) {
                ResultSetMetaData meta = rs.getMetaData();
                List<Map<String, Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        row.put(
                                FakeBigQuery.bigQueryName(meta.getColumnLabel(i)),
                                value(rs, i, meta.getColumnTypeName(i)));
                    }
                    rows.add(row);
                }
                return rows;
            } catch (SQLException e) {
                if ("42P01".equals(e.getSQLState()) || "3F000".equals(e.getSQLState())) {
                    return List.of();
                }
                throw e;
            }
        }
    }

    private static Object value(ResultSet rs, int i, String type) throws SQLException {
        return switch (type) {
            case "timestamp" -> rs.getObject(i, LocalDateTime.class);
            case "timestamptz" -> rs.getObject(i, OffsetDateTime.class);
            case "time" -> rs.getObject(i, LocalTime.class);
            case "jsonb" -> rs.getString(i);
            default -> rs.getObject(i);
        };
    }

    /**
     * docs/connectors/bigquery.md: a character BigQuery refuses in a column name (of the kit's
     * names, only the double quote) lands as {@code _}.
     */
    @Override
    public String column(String column) {
        return column.replace('"', '_');
    }

    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge", "replace");
    }

    /** BigQuery stores the years 1 to 9999; others are load deadletters. */
    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    /** BigQuery has no CHECK constraints: no rule of a user's refuses a row. */
    @Override
    public String refuse(Path dir, String stream, Set<Long> ids) {
        return null;
    }

    @Override
    public void close() throws Exception {
        fake.close();
    }
}
