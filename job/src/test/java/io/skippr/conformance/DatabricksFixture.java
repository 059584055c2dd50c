package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.databricks.fake.FakeDatabricks;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Databricks sink against the fake Databricks ({@code FakeDatabricks}: the Statement Execution
 * and Files APIs, backed by the test PostgreSQL), in catalog {@code main} and a schema of its own.
 * Rows are read from the fake's backing tables, where the Delta types are PostgreSQL's (names over
 * 63 bytes under the fake's stand-ins, mapped back).
 */
final class DatabricksFixture implements SinkFixture {
    private final FakeDatabricks fake;
    private final String schema =
            "skippr_kit_dbx_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    DatabricksFixture() throws Exception {
        fake = FakeDatabricks.start();
    }

    @Override
    public String kind() {
        return "Databricks";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    Databricks:\n      server_hostname: 127.0.0.1\n      http_path: /sql/1.0/warehouses/"
                + FakeDatabricks.WAREHOUSE_ID
                + "\n      access_token: ${KIT_DBX_TOKEN}\n      catalog: main\n      schema: "
                + schema
                + "\n      endpoint: "
                + fake.url()
                + "\n";
    }

    @Override
    public Map<String, String> env() {
        return Map.of("KIT_DBX_TOKEN", fake.token());
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws SQLException {
        try (Connection c = fake.backing()) {
            String pgSchema = null;
            try (PreparedStatement st =
                    c.prepareStatement(
                            "SELECT pg_schema FROM \"_fake\".schemas WHERE catalog = 'main' AND"
                                    + " name = ?")) {
                st.setString(1, schema);
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        pgSchema = rs.getString(1);
                    }
                }
            }
            if (pgSchema == null) {
                return List.of();
            }
            try (ResultSet rs =
                    c.createStatement()
                            .executeQuery(
                                    "SELECT * FROM \""
                                            + pgSchema
                                            + "\".\""
                                            + FakeDatabricks.backingName(table(stream))
                                                    .replace("\"", "\"\"")
                                            + "\"")) {
                ResultSetMetaData meta = rs.getMetaData();
                List<Map<String, Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        row.put(
                                FakeDatabricks.databricksName(meta.getColumnLabel(i)),
                                value(rs, i, meta.getColumnTypeName(i)));
                    }
                    rows.add(row);
                }
                return rows;
            } catch (SQLException e) {
                if ("42P01".equals(e.getSQLState())) {
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
            default -> rs.getObject(i);
        };
    }

    /** docs/connectors/databricks.md: table and column names land in lower case. */
    @Override
    public String column(String column) {
        return column.toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge", "replace");
    }

    /** Databricks stores the years 1 to 9999; others are load deadletters. */
    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    /** Databricks has no CHECK constraints the fake models: no rule of a user's refuses a row. */
    @Override
    public String refuse(Path dir, String stream, Set<Long> ids) {
        return null;
    }

    @Override
    public void close() throws Exception {
        fake.close();
    }
}
