package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.cli.Skipprd;
import io.skippr.config.testing.SpecExamples;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The destinations page's example, "Add a destination to a pipeline", as written: {@code skipprd
 * connect data-sink postgres … --schema raw} on a file whose data source {@code app_db} reads a
 * table of the same server, then {@code skipprd sync --pipeline orders --once}; the warehouse (a
 * database of its own, loaded by a role that may only create in it) then lists the table in schema
 * {@code raw}, with the source's rows; a second run over unchanged data adds nothing.
 */
class PostgresSinkITCase {
    private static final String CHECKSUM =
            "SELECT count(*), count(DISTINCT id), sum(id), sum(amount), sum(customer_id),"
                    + " md5(string_agg(concat_ws(',', id, customer_id, amount, status,"
                    + " updated_at), ';' ORDER BY id)) FROM ";

    @TempDir Path dir;
    private TestPostgres source;
    private final String suffix = Long.toHexString(System.nanoTime());
    private final String analytics = "analytics_" + suffix;
    private final String loader = "skippr_loader_" + suffix;
    private final String loaderPassword = "loader-" + suffix;

    @BeforeEach
    void serversAndStartingFile() throws Exception {
        source = new TestPostgres();
        source.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int NOT NULL,"
                        + " amount numeric(12,2), status text, updated_at timestamptz NOT NULL)",
                "INSERT INTO orders SELECT i, i % 97, i * 1.25, CASE WHEN i % 3 = 0 THEN 'paid'"
                        + " ELSE 'new' END, timestamptz '2026-11-01 00:00:00Z' + i * interval"
                        + " '1 second' FROM generate_series(1, 5000) i");
        try (Connection c = source.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE ROLE " + loader + " LOGIN PASSWORD '" + loaderPassword + "'");
            st.execute("CREATE DATABASE " + analytics);
            st.execute("GRANT CREATE ON DATABASE " + analytics + " TO " + loader);
        }
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  orders:\n    data_source: data_sources.app_db\n\n"
                        + "data_sources:\n  app_db:\n"
                        + source.sourceYaml("orders", "updated_at")
                                .replace("${PG_PASSWORD}", "${APP_DB_PASSWORD}"));
    }

    @AfterEach
    void drop() throws Exception {
        source.close();
        try (Connection c = source.connect();
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + analytics + " WITH (FORCE)");
            st.execute("DROP ROLE IF EXISTS " + loader);
        }
    }

    private record Run(int code, String out, String err) {}

    private Run skipprd(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env =
                Map.of(
                        "WAREHOUSE_PASSWORD", loaderPassword,
                        "APP_DB_PASSWORD", TestPostgres.env("SKIPPR_TEST_PG_PASSWORD"),
                        "SKIPPR_STATE_DIR", dir.resolve("state").toString());
        int code =
                Skipprd.run(args, dir, env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private Connection warehouse() throws Exception {
        return DriverManager.getConnection(
                "jdbc:postgresql://"
                        + TestPostgres.env("SKIPPR_TEST_PG_HOST")
                        + ":"
                        + TestPostgres.env("SKIPPR_TEST_PG_PORT")
                        + "/"
                        + analytics
                        + "?sslmode=disable",
                loader,
                loaderPassword);
    }

    private List<List<String>> warehouse(String sql) throws Exception {
        try (Connection c = warehouse();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private List<String> sourceChecksum() throws Exception {
        try (Connection c = source.connect();
                Statement st = c.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            try (ResultSet rs = st.executeQuery(CHECKSUM + "\"" + source.schema + "\".orders")) {
                rs.next();
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= 6; i++) {
                    row.add(rs.getString(i));
                }
                return row;
            }
        }
    }

    private List<String> warehouseChecksum() throws Exception {
        try (Connection c = warehouse();
                Statement st = c.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            try (ResultSet rs = st.executeQuery(CHECKSUM + "raw.orders")) {
                rs.next();
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= 6; i++) {
                    row.add(rs.getString(i));
                }
                return row;
            }
        }
    }

    @Test
    void theAddADestinationExampleLoadsPostgresIntoSchemaRawExactlyOnce() throws Exception {
        String host = TestPostgres.env("SKIPPR_TEST_PG_HOST");
        String port = TestPostgres.env("SKIPPR_TEST_PG_PORT");
        Run connect =
                skipprd(
                        "connect",
                        "data-sink",
                        "postgres",
                        "--pipeline",
                        "orders",
                        "--name",
                        "warehouse",
                        "--host",
                        host,
                        "--port",
                        port,
                        "--user",
                        loader,
                        "--password",
                        "${WAREHOUSE_PASSWORD}",
                        "--database",
                        analytics,
                        "--schema",
                        "raw");
        assertThat(connect.code()).as(connect.out() + connect.err()).isZero();
        Map<String, Object> saved = SpecExamples.parse(Files.readString(dir.resolve("skippr.yml")));
        assertThat(saved.get("pipelines").toString())
                .isEqualTo(
                        "{orders={data_source=data_sources.app_db,"
                                + " data_sink=data_sinks.warehouse}}");
        assertThat(saved.get("data_sinks").toString())
                .isEqualTo(
                        "{warehouse={Postgres={host="
                                + host
                                + ", port="
                                + port
                                + ", user="
                                + loader
                                + ", password=${WAREHOUSE_PASSWORD}, database="
                                + analytics
                                + ", schema=raw}}}");
        assertThat(Files.readString(dir.resolve("skippr.yml"))).doesNotContain(loaderPassword);

        Run sync = skipprd("sync", "--pipeline", "orders", "--once");
        assertThat(sync.code()).as(sync.out() + sync.err()).isZero();
        assertThat(sync.err()).contains("Pipeline sync complete: 1 streams, 5000 records read");

        assertThat(
                        warehouse(
                                "SELECT table_name FROM information_schema.tables WHERE"
                                        + " table_schema = 'raw'"))
                .extracting(r -> r.get(0))
                .containsExactlyInAnyOrder("orders", "_skippr_commits", "_skippr_loads");
        assertThat(warehouseChecksum()).isEqualTo(sourceChecksum());
        assertThat(warehouse("SELECT count(DISTINCT _skippr_id) FROM raw.orders"))
                .containsExactly(List.of("5000"));

        Run again = skipprd("sync", "--pipeline", "orders", "--once");
        assertThat(again.code()).as(again.out() + again.err()).isZero();
        assertThat(again.err()).contains("Pipeline sync complete");
        assertThat(warehouse("SELECT count(*) FROM raw.orders"))
                .as("a second run over unchanged data adds no rows")
                .containsExactly(List.of("5000"));

        source.exec(
                "INSERT INTO orders SELECT i, i % 97, i * 1.25, 'new', timestamptz"
                        + " '2026-11-02 00:00:00Z' + i * interval '1 second' FROM"
                        + " generate_series(5001, 5010) i");
        Run third = skipprd("sync", "--pipeline", "orders", "--once");
        assertThat(third.code()).as(third.out() + third.err()).isZero();
        assertThat(warehouseChecksum())
                .as("only the new rows were added")
                .isEqualTo(sourceChecksum());
    }
}
