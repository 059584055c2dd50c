package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Config;
import io.skippr.job.Session;
import io.skippr.job.TestPostgres;
import io.skippr.job.deadletters.DeadletterFilter;
import io.skippr.job.deadletters.Deadletters;
import io.skippr.job.deadletters.StoredDeadletter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd deadletters list} and {@code replay} against PostgreSQL: a load-stage deadletter
 * (a row a CHECK constraint refuses) is listed, replayed once the constraint is dropped, and loaded
 * exactly once, also when the replay is run again or killed after its commit.
 */
class DeadlettersITCase {
    private static final String CHECKSUM =
            "SELECT count(*), count(DISTINCT id), sum(id), md5(string_agg(id || ':' || note, ','"
                    + " ORDER BY id)) FROM orders";

    private static final String REFUSAL =
            "new row for relation \"orders\" violates check constraint \"short_note\"";

    @TempDir Path dir;
    private TestPostgres source;
    private TestPostgres out;
    private TestPostgres rejects;
    private Map<String, String> env;

    @BeforeEach
    void orders() throws Exception {
        source = new TestPostgres("skippr_dl_src_");
        out = new TestPostgres("skippr_dl_out_");
        rejects = new TestPostgres("skippr_dl_rej_");
        source.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, note text NOT NULL)",
                "INSERT INTO orders SELECT i, 'n' || i FROM generate_series(1, 1005) i");
        env = new HashMap<>(TestPostgres.passwordEnv());
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
    }

    @AfterEach
    void drop() throws Exception {
        // made only if list prepared the data sink it should only read
        out.exec("DROP SCHEMA IF EXISTS \"" + out.schema + "_absent\" CASCADE");
        source.close();
        out.close();
        rejects.close();
    }

    /** A pipeline appending orders (by cursor id) into PostgreSQL, with {@code deadletterSink}. */
    private Path config(String deadletterSink) throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                "pipelines:\n  orders:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "    write_mode: append\n"
                        + (deadletterSink == null
                                ? ""
                                : "    deadletter_sink: deadletter_sinks.rejects\n")
                        + "data_sources:\n  app_db:\n"
                        + source.sourceYaml("orders", "id")
                        + "data_sinks:\n  warehouse:\n"
                        + TestPostgres.sinkYaml(out.schema)
                        + (deadletterSink == null
                                ? ""
                                : "deadletter_sinks:\n  rejects:\n" + deadletterSink));
        return file;
    }

    private CliRun cli(String... args) {
        return CliRun.run(dir, env, args);
    }

    /**
     * Loads 1005 orders, limits the destination's notes to 10 characters with a CHECK constraint,
     * adds five orders with longer notes: the second sync deadletters exactly those five at the
     * load stage.
     */
    private void fiveLoadDeadletters(Path config) throws Exception {
        CliRun first = cli("sync", "--config", config.toString(), "--pipeline", "orders", "--once");
        assertThat(first.exitCode()).as(first.all()).isZero();
        out.exec("ALTER TABLE orders ADD CONSTRAINT short_note CHECK (length(note) <= 10)");
        source.exec(
                "INSERT INTO orders SELECT i, 'a note too long ' || i FROM generate_series(1006,"
                        + " 1010) i");
        CliRun second =
                cli("sync", "--config", config.toString(), "--pipeline", "orders", "--once");
        assertThat(second.exitCode()).as(second.all()).isZero();
        assertThat(out.one("SELECT count(*) FROM orders")).containsExactly("1005");
    }

    @Test
    void aLoadDeadletterIsListedReplayedAgainWhileItFailsAndLoadedOnceAfterTheFix()
            throws Exception {
        Path config = config(TestPostgres.sinkYaml(rejects.schema));
        fiveLoadDeadletters(config);

        CliRun list =
                cli("deadletters", "list", "--config", config.toString(), "--pipeline", "orders");
        assertThat(list.exitCode()).as(list.all()).isZero();
        String header =
                "Pipeline orders: 5 deadletters in \""
                        + rejects.schema
                        + "\".\"skippr_deadletters\" of ";
        assertThat(list.out())
                .startsWith(header)
                .endsWith(
                        "\n     5  load  RefusedByDestination: "
                                + REFUSAL
                                + "\n"
                                + "        orders at orders|id=1006|id=1006\n"
                                + "        orders at orders|id=1007|id=1007\n"
                                + "        orders at orders|id=1008|id=1008\n"
                                + "        and 2 more\n");

        // list only reads: a data sink whose schema does not exist yet is left without one
        String absent = out.schema + "_absent";
        Path elsewhere = dir.resolve("elsewhere.yml");
        Files.writeString(
                elsewhere,
                Files.readString(config)
                        .replace(TestPostgres.sinkYaml(out.schema), TestPostgres.sinkYaml(absent)));
        CliRun readOnly =
                cli(
                        "deadletters",
                        "list",
                        "--config",
                        elsewhere.toString(),
                        "--pipeline",
                        "orders");
        assertThat(readOnly.exitCode()).as(readOnly.all()).isZero();
        assertThat(readOnly.out()).isEqualTo(list.out());
        assertThat(
                        out.one(
                                "SELECT count(*) FROM information_schema.schemata WHERE schema_name"
                                        + " = '"
                                        + absent
                                        + "'"))
                .containsExactly("0");

        // replayed before the cause is fixed: each fails again, as a new deadletter marked as such
        CliRun early =
                cli("deadletters", "replay", "--config", config.toString(), "--pipeline", "orders");
        assertThat(early.exitCode()).as(early.all()).isZero();
        assertThat(early.out())
                .isEqualTo("Replayed 5 deadletters of pipeline orders: 0 loaded, 5 failed again\n");
        assertThat(
                        rejects.one(
                                "SELECT count(*), count(DISTINCT _skippr_id) FROM skippr_deadletters"))
                .containsExactly("10", "10");
        CliRun relisted =
                cli("deadletters", "list", "--config", config.toString(), "--pipeline", "orders");
        assertThat(relisted.out())
                .startsWith(header)
                .contains(" (5 more replayed or not selected; --all shows replayed ones)\n")
                .containsPattern(
                        "        orders at orders\\|id=1006\\|id=1006 \\(failed again when deadletter"
                                + " [0-9a-f]{32} was replayed\\)\n");

        out.exec("ALTER TABLE orders DROP CONSTRAINT short_note");
        CliRun replay =
                cli(
                        "deadletters",
                        "replay",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders",
                        "--stage",
                        "load",
                        "--reason",
                        "check constraint");
        assertThat(replay.exitCode()).as(replay.all()).isZero();
        assertThat(replay.out())
                .isEqualTo("Replayed 5 deadletters of pipeline orders: 5 loaded, 0 failed again\n");
        assertThat(out.one(CHECKSUM)).isEqualTo(source.one(CHECKSUM));
        // each replayed row keeps the _skippr_id its source position gives it
        assertThat(out.one("SELECT _skippr_id FROM orders WHERE id = 1006"))
                .containsExactly(
                        io.skippr.core.record.SkipprId.of("orders", "orders|id=1006|id=1006"));

        CliRun again =
                cli("deadletters", "replay", "--config", config.toString(), "--pipeline", "orders");
        assertThat(again.exitCode()).as(again.all()).isZero();
        assertThat(again.out()).isEqualTo("No deadletters of pipeline orders to replay\n");
        assertThat(out.one(CHECKSUM)).isEqualTo(source.one(CHECKSUM));
        CliRun all =
                cli(
                        "deadletters",
                        "list",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders",
                        "--all");
        assertThat(all.out())
                .contains("        orders at orders|id=1006|id=1006 (replayed)\n")
                .startsWith("Pipeline orders: 10 deadletters in ");

        // the next sync goes on from where the source was read, as before the replays
        source.exec("INSERT INTO orders VALUES (1011, 'n1011')");
        CliRun sync = cli("sync", "--config", config.toString(), "--pipeline", "orders", "--once");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(out.one(CHECKSUM)).isEqualTo(source.one(CHECKSUM));
    }

    @Test
    void aReplayKilledAfterItsCommitLoadsNothingTwiceFromAFileDeadletterSink() throws Exception {
        Path rejected = dir.resolve("rejected");
        Path config = config("    LocalFile: {path: " + rejected + ", format: jsonl}\n");
        fiveLoadDeadletters(config);
        Deadletters deadletters =
                new Session(Config.load(config).getPipeline("orders"), env).deadletters();
        List<StoredDeadletter> listed = deadletters.list(DeadletterFilter.PENDING).taken();
        assertThat(listed)
                .extracting(StoredDeadletter::originalPosition)
                .containsExactly(
                        "orders|id=1006|id=1006",
                        "orders|id=1007|id=1007",
                        "orders|id=1008|id=1008",
                        "orders|id=1009|id=1009",
                        "orders|id=1010|id=1010");
        assertThat(listed)
                .allSatisfy(
                        d -> {
                            assertThat(d.stage()).isEqualTo("load");
                            assertThat(d.payload()).startsWith("{\"id\":");
                        });

        out.exec("ALTER TABLE orders DROP CONSTRAINT short_note");
        Process killed =
                SkipprdProcess.start(
                        dir,
                        "replay",
                        env,
                        List.of("-Dskippr.failpoint=after-commit"),
                        "deadletters",
                        "replay",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders");
        assertThat(killed.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(killed.exitValue()).as(Files.readString(dir.resolve("replay.err"))).isNotZero();
        assertThat(out.one("SELECT count(*) FROM orders")).containsExactly("1010");

        Deadletters.Replay rerun = deadletters.replay(DeadletterFilter.PENDING);
        assertThat(rerun.replayed()).isZero();
        assertThat(out.one(CHECKSUM)).isEqualTo(source.one(CHECKSUM));
        assertThat(deadletters.list(DeadletterFilter.PENDING).taken()).isEmpty();
        assertThat(deadletters.list(new DeadletterFilter("load", null, null, true)).taken())
                .hasSize(5);
    }

    @Test
    void deadlettersThatCannotBeReadBackAreRefusedWithTheReasonAndAnUnreachableSinkIsAFailure()
            throws Exception {
        Path stdout = config("    Stdout: {}\n");
        CliRun list =
                cli("deadletters", "list", "--config", stdout.toString(), "--pipeline", "orders");
        assertThat(list.exitCode()).isEqualTo(2);
        assertThat(list.err())
                .isEqualTo(
                        "error: deadletter_sinks.rejects (Stdout) prints each deadletter as a line"
                                + " and keeps nothing, so there is nothing to read back; to list and"
                                + " replay deadletters, use a table (Postgres, DuckDB, MotherDuck,"
                                + " ClickHouse, Redshift, Snowflake, Databricks, Synapse, BigQuery,"
                                + " SkipprLake, AthenaIceberg) or files (LocalFile, S3, GCS, AzureBlob, SFTP, Athena)"
                                + " as the deadletter sink\n");
        Path unreachable =
                config(
                        "    Postgres: {host: 127.0.0.1, port: 1, user: u, password: p, database:"
                                + " d, sslmode: disable}\n");
        CliRun down =
                cli(
                        "deadletters",
                        "list",
                        "--config",
                        unreachable.toString(),
                        "--pipeline",
                        "orders");
        assertThat(down.exitCode()).as(down.all()).isEqualTo(1);
        assertThat(down.err())
                .startsWith("error: ")
                .contains(
                        " — while connecting on PostgreSQL at 127.0.0.1:1, database \"d\", user"
                                + " \"u\" (sslmode disable)");
        CliRun stage =
                cli(
                        "deadletters",
                        "list",
                        "--config",
                        unreachable.toString(),
                        "--pipeline",
                        "orders",
                        "--stage",
                        "loading");
        assertThat(stage.exitCode()).isEqualTo(2);
        assertThat(stage.err()).isEqualTo("error: --stage 'loading': expected transform or load\n");
        Path none = config(null);
        CliRun replay =
                cli("deadletters", "replay", "--config", none.toString(), "--pipeline", "orders");
        assertThat(replay.exitCode()).isEqualTo(2);
        assertThat(replay.err())
                .isEqualTo(
                        "error: pipeline orders has no deadletter sink, so its deadletters were"
                                + " discarded (counted in the log); add a deadletter_sinks entry and"
                                + " set the pipeline's deadletter_sink to keep the next ones\n");
    }
}
