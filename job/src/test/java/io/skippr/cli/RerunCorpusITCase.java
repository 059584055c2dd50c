package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The correctness corpus, part one: what a user who runs {@code skipprd sync --once} again, as
 * every sync tool's user does, must see. Each test is a path that loaded rows twice or failed late
 * before (issue 12), and checks the rows by count and by an md5 over every column against the
 * source.
 */
class RerunCorpusITCase {
    private static final String ORDERS =
            "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int, amount numeric(12,2),"
                    + " status text, created_at timestamptz)";
    private static final String FILL =
            "INSERT INTO orders SELECT g, g % 37, g * 1.25, CASE WHEN g % 3 = 0 THEN 'paid' ELSE"
                    + " 'open' END, timestamptz '2026-11-01 00:00+00' + g * interval '1 minute'"
                    + " FROM generate_series(1, 1000) g";

    /** Every column of a row, in one text, for an md5 over a table. */
    private static final String ROW_TEXT =
            "concat_ws('|', id, customer_id, amount, status, created_at)";

    @TempDir Path dir;
    private TestPostgres source;
    private TestPostgres raw;

    @BeforeEach
    void schemas() throws Exception {
        source = new TestPostgres("skippr_app_");
        raw = new TestPostgres("skippr_raw_");
        source.exec(ORDERS, FILL);
    }

    @AfterEach
    void drop() throws Exception {
        source.close();
        raw.close();
    }

    /** The spec's walkthrough: PostgreSQL to PostgreSQL, no cursor_column, no write_mode. */
    @Test
    void specWalkthroughRunTwiceMirrorsTheSourceInsteadOfDoublingIt() throws Exception {
        Path config = config(source.sourceYaml("orders", null));

        assertThat(sync(config).exitCode()).isZero();
        source.exec("UPDATE orders SET status = 'refunded' WHERE id IN (5, 500)");
        CliRun second = sync(config);

        assertThat(second.exitCode()).as(second.all()).isZero();
        assertThat(second.all()).doesNotContain("warning:");
        assertThat(summary(raw, "orders")).isEqualTo(summary(source, "orders"));
        assertThat(raw.one("SELECT count(*) FROM orders WHERE status = 'refunded'"))
                .containsExactly("2");
    }

    @Test
    void schemaQualifiedTableNamesAndPatternsAreRead() throws Exception {
        source.exec(
                "CREATE TABLE order_lines (id int PRIMARY KEY, order_id bigint)",
                "INSERT INTO order_lines SELECT g, g FROM generate_series(1, 30) g");
        Path config =
                config(
                        sourceYaml(
                                "      tables: ['"
                                        + source.schema
                                        + ".orders', '"
                                        + source.schema
                                        + ".order_l*']\n"));

        CliRun run = sync(config);

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(summary(raw, "orders")).isEqualTo(summary(source, "orders"));
        assertThat(raw.one("SELECT count(*), sum(id), sum(order_id) FROM order_lines"))
                .containsExactly("30", "465", "465");
    }

    @Test
    void missingTableIsAConfigurationErrorBeforeTheJobStarts() throws Exception {
        Path config =
                config(
                        sourceYaml(
                                "      tables: ['"
                                        + source.schema
                                        + ".ordres', '"
                                        + source.schema
                                        + "x.orders']\n"));

        CliRun run = sync(config);

        assertThat(run.exitCode()).as(run.all()).isEqualTo(Skipprd.USAGE);
        List<String> errors = run.err().lines().filter(l -> l.startsWith("error: ")).toList();
        assertThat(errors).hasSize(2);
        assertThat(errors.get(0))
                .isEqualTo(
                        "error: skippr.yml: data_sources.app_db.Postgres: Table \"ordres\" does"
                                + " not exist in schema \""
                                + source.schema
                                + "\"; close names: \"orders\"");
        assertThat(errors.get(1))
                .startsWith(
                        "error: skippr.yml: data_sources.app_db.Postgres: Schema \""
                                + source.schema
                                + "x\" does not exist in database \""
                                + TestPostgres.env("SKIPPR_TEST_PG_DATABASE")
                                + "\"; close names: \""
                                + source.schema
                                + "\"");
        assertThat(run.all()).doesNotContain("Flink web UI", "Exception", "\tat ");
        assertThat(raw.one("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"))
                .containsExactly("0");
    }

    @Test
    void aWrongPasswordIsAConfigurationErrorBeforeTheJobStarts() throws Exception {
        Path config = config(login(TestPostgres.env("SKIPPR_TEST_PG_USER")));

        CliRun run = sync(config, Map.of("SRC_PASSWORD", "not-the-password"));

        assertThat(run.exitCode()).as(run.all()).isEqualTo(Skipprd.USAGE);
        assertThat(run.err().lines().filter(l -> l.startsWith("error: ")).toList())
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith(
                        "error: skippr.yml: data_sources.app_db.Postgres: Could not connect to"
                                + " PostgreSQL at ")
                .contains("password authentication failed");
        assertThat(run.all()).doesNotContain("Flink web UI", "not-the-password", "\tat ");
    }

    @Test
    void aTableTheUserMayNotReadIsAConfigurationErrorNamingTheGrant() throws Exception {
        String role = source.schema + "_reader";
        source.exec(
                "CREATE ROLE \"" + role + "\" LOGIN PASSWORD 'reader-pw'",
                "GRANT USAGE ON SCHEMA \"" + source.schema + "\" TO \"" + role + "\"");
        try {
            CliRun run = sync(config(login(role)), Map.of("SRC_PASSWORD", "reader-pw"));

            assertThat(run.exitCode()).as(run.all()).isEqualTo(Skipprd.USAGE);
            assertThat(run.err().lines().filter(l -> l.startsWith("error: ")).toList())
                    .containsExactly(
                            "error: skippr.yml: data_sources.app_db.Postgres: user \""
                                    + role
                                    + "\" may not read \""
                                    + source.schema
                                    + "\".\"orders\"; run GRANT SELECT ON \""
                                    + source.schema
                                    + "\".\"orders\" TO \""
                                    + role
                                    + "\"");
            assertThat(run.all()).doesNotContain("Flink web UI", "\tat ");
        } finally {
            source.exec(
                    "REVOKE ALL ON SCHEMA \"" + source.schema + "\" FROM \"" + role + "\"",
                    "DROP ROLE \"" + role + "\"");
        }
    }

    /**
     * A privilege the sink lacks only shows when the commit inserts into a table of someone else's
     * (the checks before the job see USAGE and CREATE on the schema): the run fails at once with
     * the GRANT to run, rather than restarting with backoff for minutes.
     */
    @Test
    void aPrivilegeMissingAtRuntimeFailsAtOnceInsteadOfRestarting() throws Exception {
        String role = raw.schema + "_loader";
        raw.exec(
                "CREATE ROLE \"" + role + "\" LOGIN PASSWORD 'loader-pw'",
                "GRANT USAGE, CREATE ON SCHEMA \"" + raw.schema + "\" TO \"" + role + "\"",
                ORDERS);
        try {
            String sink =
                    TestPostgres.sinkYaml(raw.schema)
                            .replace(
                                    "user: " + TestPostgres.env("SKIPPR_TEST_PG_USER"),
                                    "user: " + role)
                            .replace("${PG_PASSWORD}", "${SINK_PASSWORD}");
            Path config = config(source.sourceYaml("orders", null), sink);
            long start = System.nanoTime();

            CliRun run = sync(config, Map.of("SINK_PASSWORD", "loader-pw"));

            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            assertThat(run.exitCode()).as(run.all()).isEqualTo(Skipprd.FAILURE);
            assertThat(run.all()).doesNotContain("restarts", "\tat ");
            assertThat(run.err().lines().filter(l -> l.startsWith("error: ")).toList())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("must be owner of table orders: ALTER TABLE orders OWNER TO " + role);
            assertThat(seconds).as("one attempt, not a restart loop").isLessThan(60);
            assertThat(raw.one("SELECT count(*) FROM orders")).containsExactly("0");
        } finally {
            raw.exec(
                    "DROP TABLE IF EXISTS orders",
                    "DROP OWNED BY \"" + role + "\"",
                    "DROP ROLE \"" + role + "\"");
        }
    }

    /** The source entry of the orders table logging in as {@code user} with ${SRC_PASSWORD}. */
    private String login(String user) {
        return source.sourceYaml("orders", null)
                .replace("user: " + TestPostgres.env("SKIPPR_TEST_PG_USER"), "user: " + user)
                .replace("${PG_PASSWORD}", "${SRC_PASSWORD}");
    }

    /**
     * A table without a key or cursor is read in full by every run, and an append sink adds it
     * again: each run says so before it starts, rather than doubling the table in silence.
     */
    @Test
    void fullReadOfATableWithoutKeyIntoAnAppendSinkWarnsOnEveryRun() throws Exception {
        source.exec(
                "CREATE TABLE events (kind text, at int)",
                "INSERT INTO events SELECT 'k' || g, g FROM generate_series(1, 10) g");
        Path config = config(source.sourceYaml("events", null));
        String warning =
                "warning: pipeline orders: stream events has no primary key and no"
                        + " cursor_column, so every run reads all of it and the data sink appends"
                        + " it again. Give the table a primary key (the sink then merges on it),"
                        + " set cursor_column, or write write_mode: replace on a SQL sink.";

        CliRun first = sync(config);
        CliRun second = sync(config);

        assertThat(first.err().lines()).contains(warning);
        assertThat(second.err().lines()).contains(warning);
        assertThat(raw.one("SELECT count(*), count(DISTINCT at), sum(at) FROM events"))
                .containsExactly("20", "10", "110");
    }

    private String sourceYaml(String tables) {
        String yaml = source.sourceYaml("orders", null);
        return yaml.substring(0, yaml.indexOf("      schema: ")) + tables;
    }

    private CliRun sync(Path config) {
        return sync(config, Map.of());
    }

    private CliRun sync(Path config, Map<String, String> more) {
        Map<String, String> env = new java.util.HashMap<>(more);
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        env.put("PG_PASSWORD", TestPostgres.env("SKIPPR_TEST_PG_PASSWORD"));
        return CliRun.run(
                dir, env, "sync", "--config", config.toString(), "--pipeline", "orders", "--once");
    }

    private Path config(String sourceYaml) throws Exception {
        return config(sourceYaml, TestPostgres.sinkYaml(raw.schema));
    }

    private Path config(String sourceYaml, String sinkYaml) throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                "pipelines:\n  orders:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n"
                        + sourceYaml
                        + "data_sinks:\n  warehouse:\n"
                        + sinkYaml);
        return file;
    }

    /** Row count, distinct keys and an md5 over every column of every row, in key order. */
    private static List<String> summary(TestPostgres db, String table) throws Exception {
        return db.one(
                "SELECT count(*), count(DISTINCT id), md5(string_agg("
                        + ROW_TEXT
                        + ", E'\\n' ORDER BY id)) FROM "
                        + table);
    }
}
