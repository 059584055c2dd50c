package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.redshift.TestRedshift;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
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
 * The Redshift sink against its twin ({@code RedshiftTwin}: the official driver's protocol in front
 * of the test PostgreSQL, COPY from the test S3Proxy), in a schema of its own, staging in a bucket
 * of its own. Rows are read back through the twin, which gives names over 63 bytes back whole.
 */
final class RedshiftFixture implements SinkFixture {
    private final TestRedshift redshift;
    private final String schema =
            "skippr_kit_rs_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    RedshiftFixture() throws Exception {
        redshift = new TestRedshift();
    }

    @Override
    public String kind() {
        return "Redshift";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    Redshift:\n      host: 127.0.0.1\n      port: "
                + redshift.twin.port()
                + "\n      user: "
                + SourceTable.env("SKIPPR_TEST_PG_USER")
                + "\n      password: ${KIT_DST_PW}\n      database: "
                + SourceTable.env("SKIPPR_TEST_PG_DATABASE")
                + "\n      schema: "
                + schema
                + "\n      ssl: false\n      s3_bucket: "
                + redshift.bucket
                + "\n      iam_role: arn:aws:iam::123456789012:role/skippr-twin\n      region: "
                + SourceTable.env("SKIPPR_TEST_S3_REGION")
                + "\n      endpoint: "
                + SourceTable.env("SKIPPR_TEST_S3_ENDPOINT")
                + "\n      path_style_access: true\n";
    }

    /** The password, and for skipprd processes the AWS chain's keys of the S3Proxy. */
    @Override
    public Map<String, String> env() {
        return Map.of(
                "KIT_DST_PW", SourceTable.env("SKIPPR_TEST_PG_PASSWORD"),
                "AWS_ACCESS_KEY_ID", SourceTable.env("SKIPPR_TEST_S3_ACCESS_KEY"),
                "AWS_SECRET_ACCESS_KEY", SourceTable.env("SKIPPR_TEST_S3_SECRET_KEY"),
                "AWS_EC2_METADATA_DISABLED", "true");
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws SQLException {
        try (Connection c = throughTheTwin();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "SELECT * FROM \""
                                                + schema
                                                + "\".\""
                                                + table(stream).replace("\"", "\"\"")
                                                + "\"")) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(meta.getColumnLabel(i), value(rs, i, meta.getColumnTypeName(i)));
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

    /**
     * A PostgreSQL driver's connection through the twin, so that names over PostgreSQL's 63 bytes
     * read back whole, as from Redshift (the twin stores them under 63-byte stand-ins).
     */
    private Connection throughTheTwin() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:"
                        + redshift.twin.port()
                        + "/"
                        + SourceTable.env("SKIPPR_TEST_PG_DATABASE")
                        + "?sslmode=disable",
                SourceTable.env("SKIPPR_TEST_PG_USER"),
                SourceTable.env("SKIPPR_TEST_PG_PASSWORD"));
    }

    private static Object value(ResultSet rs, int i, String type) throws SQLException {
        return switch (type) {
            case "time" -> rs.getObject(i, LocalTime.class);
            case "timestamp" -> rs.getObject(i, LocalDateTime.class);
            case "timestamptz" -> rs.getObject(i, OffsetDateTime.class);
            default -> rs.getObject(i);
        };
    }

    /** docs/connectors/redshift.md: Redshift keeps 127 bytes, so the kit's names land whole. */
    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge", "replace");
    }

    /** Skippr loads the years 1 to 9999 into Redshift; others are load deadletters. */
    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    @Override
    public boolean commitsARunAtOnce() {
        return true;
    }

    /** Redshift has no CHECK constraints nor enforced keys: no rule of a user's refuses a row. */
    @Override
    public String refuse(Path dir, String stream, Set<Long> ids) {
        return null;
    }

    @Override
    public void close() throws Exception {
        try (Connection c = PostgresFixture.connect()) {
            c.createStatement().execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        } finally {
            redshift.close();
        }
    }
}
