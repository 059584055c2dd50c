package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import io.skippr.sinks.wal.WalStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state folder on a disk that fills up: a real 16 MiB tmpfs ({@link SmallDisk}) as {@code
 * SKIPPR_STATE_DIR}, filled to the last byte while {@code skipprd} runs as its own process. Each
 * case asserts what the user is told, that nothing synced before is lost, and that once space is
 * freed the pipeline carries on with every row exactly once (counts, distinct {@code _skippr_id}s
 * and an md5 over every row, against the source).
 */
class FullStateDiskITCase {
    private static final String ROWS = "md5(string_agg(id || ':' || name, ',' ORDER BY id))";

    @TempDir Path dir;

    private TestPostgres pg;
    private String sinkSchema;
    private SmallDisk disk;

    @BeforeEach
    void setUp() throws Exception {
        pg = new TestPostgres("skippr_disk_");
        sinkSchema = pg.schema + "_out";
        pg.exec(
                "CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL,"
                        + " updated_at timestamptz NOT NULL DEFAULT clock_timestamp())");
        insert(1, 2000);
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n"
                        + "  to_pg: {data_source: data_sources.app_db, data_sink: data_sinks.warehouse}\n"
                        + "  to_wal: {data_source: data_sources.app_db}\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("items", "updated_at")
                        + "data_sinks:\n  warehouse:\n"
                        + TestPostgres.sinkYaml(sinkSchema));
        disk = new SmallDisk(dir.resolve("state"), 16);
    }

    @AfterEach
    void tearDown() throws Exception {
        disk.close();
        pg.exec("DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE");
        pg.close();
    }

    @Test
    void continuousSyncSaysTheStateFolderIsFullLosesNothingAndCarriesOnOnceFreed()
            throws Exception {
        Path conf = SkipprdProcess.fastCheckpoints(dir);
        Process sync = skipprd("sync", Map.of("SKIPPR_FLINK_CONF_DIR", conf.toString()), "to_pg");
        try {
            await(sync, "the first 2000 rows land", () -> synced().get(0).equals("2000"));

            disk.fill();
            insert(2001, 2500);
            Pattern full =
                    Pattern.compile(
                            "warning: checkpoint \\d+ failed \\(.+\\): the state folder "
                                    + Pattern.quote(disk.path().resolve("to_pg").toString())
                                    + " is full \\([^)]+ free of 16\\.0 MiB\\); free space there;"
                                    + " nothing new is committed until a checkpoint completes,"
                                    + " and nothing is lost");
            await(
                    sync,
                    "skipprd says the state folder is full",
                    () -> full.matcher(err("sync")).find());
            assertThat(err("sync"))
                    .contains(
                            "warning: cannot write the log file "
                                    + disk.path().resolve("to_pg/logs/skipprd.log")
                                    + ": No space left on device; its lines are lost until it can"
                                    + " be written again");
            List<String> meanwhile = synced();
            assertThat(meanwhile.get(1)).as("no row twice").isEqualTo(meanwhile.get(0));
            assertThat(
                            pg.one(
                                    "SELECT "
                                            + ROWS
                                            + " FROM \""
                                            + sinkSchema
                                            + "\".items WHERE id <= 2000"))
                    .as("the rows synced before the disk filled are all there, unchanged")
                    .containsExactly(sourceRows(1, 2000));

            disk.free();
            await(sync, "all 2500 rows land", () -> synced().get(0).equals("2500"));
            assertThat(synced()).containsExactly("2500", "2500", source().get(1));
            Pattern recovered =
                    Pattern.compile(
                            "warning: checkpoint \\d+ completed: committing again after \\d+ failed"
                                    + " checkpoints?\n");
            await(
                    sync,
                    "skipprd says it commits again",
                    () -> recovered.matcher(err("sync")).find());
            assertThat(lines(err("sync"), "warning: cannot write the log file")).hasSize(1);
            assertThat(err("sync")).doesNotContain("\tat ");
        } finally {
            sync.destroy();
            assertThat(sync.waitFor(60, TimeUnit.SECONDS)).as("skipprd stops on SIGTERM").isTrue();
        }
    }

    @Test
    void onceIntoTheWalFailsClearlyOnAFullStateDiskAndTheNextRunCarriesOn() throws Exception {
        assertThat(once("first", "to_wal")).isZero();
        assertThat(wal()).containsExactly("2000", "2000", sourceRows(1, 2000));

        insert(2001, 2500);
        disk.fill();
        assertThat(once("full", "to_wal")).isEqualTo(1);
        Path wal = disk.path().resolve("to_wal/wal");
        List<String> said = err("full").lines().toList();
        assertThat(lines(err("full"), "warning: cannot write the log file"))
                .containsExactly(
                        "warning: cannot write the log file "
                                + disk.path().resolve("to_wal/logs/skipprd.log")
                                + ": No space left on device; its lines are lost until it can be"
                                + " written again");
        assertThat(lines(err("full"), "warning: the pipeline failed and restarts: "))
                .as("a --once run tries twice more before it fails")
                .hasSize(2)
                .allMatch(l -> l.contains("FileSinkException: cannot write " + wal));
        assertThat(said.get(said.size() - 2))
                .matches(
                        "error: FileSinkException: cannot write "
                                + Pattern.quote(wal + "/.skippr-staging/to_wal/")
                                + "\\S+/items/to_wal-\\S+\\.parquet \\(a file being prepared for "
                                + Pattern.quote(wal.toString())
                                + "\\): No space left on device \\([^)]+ free of 16\\.0 MiB on its"
                                + " disk\\)");
        assertThat(said.get(said.size() - 1))
                .isEqualTo(
                        "Free space there and run again: what earlier runs committed is kept, and"
                                + " the next run carries on from it.");
        assertThat(err("full")).doesNotContain("\tat ");
        assertThat(wal())
                .as("the first run's rows are kept")
                .containsExactly("2000", "2000", sourceRows(1, 2000));

        disk.free();
        assertThat(once("freed", "to_wal")).isZero();
        assertThat(err("freed"))
                .contains(
                        "Pipeline sync complete: 1 streams, 500 records read, 500 written, 0"
                                + " deadlettered");
        assertThat(wal()).containsExactly("2500", "2500", source().get(1));
    }

    @Test
    void onceIntoPostgresNeedsNoRoomInTheStateFolder() throws Exception {
        disk.fill();
        assertThat(once("full", "to_pg")).isZero();
        assertThat(err("full"))
                .contains(
                        "Pipeline sync complete: 1 streams, 2000 records read, 2000 written, 0"
                                + " deadlettered");
        assertThat(lines(err("full"), "warning: cannot write the log file")).hasSize(1);
        assertThat(synced()).containsExactly("2000", "2000", source().get(1));
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Inserts rows {@code from..to} at the source, each with its own cursor value. */
    private void insert(int from, int to) throws Exception {
        pg.exec(
                "INSERT INTO items (id, name) SELECT g, 'item ' || g FROM generate_series("
                        + from
                        + ", "
                        + to
                        + ") g");
    }

    private Process skipprd(
            String name, Map<String, String> extraEnv, String pipeline, String... flags)
            throws Exception {
        Map<String, String> env = new HashMap<>(TestPostgres.passwordEnv());
        env.put("SKIPPR_STATE_DIR", disk.path().toString());
        env.putAll(extraEnv);
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "sync",
                                "--pipeline",
                                pipeline,
                                "--config",
                                dir.resolve("skippr.yml").toString()));
        args.addAll(List.of(flags));
        return SkipprdProcess.start(dir, name, env, List.of(), args.toArray(String[]::new));
    }

    /** Runs {@code skipprd sync --once} to its end; returns its exit code. */
    private int once(String name, String pipeline) throws Exception {
        Process run = skipprd(name, Map.of(), pipeline, "--once");
        assertThat(run.waitFor(3, TimeUnit.MINUTES)).as("%s ends", name).isTrue();
        return run.exitValue();
    }

    private void await(
            Process process, String what, java.util.concurrent.Callable<Boolean> condition)
            throws Exception {
        SkipprdProcess.await(process, Duration.ofMinutes(2), what, condition, () -> err("sync"));
    }

    private String err(String name) throws Exception {
        Path file = dir.resolve(name + ".err");
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private static List<String> lines(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    /** The md5 over the source's rows {@code from..to}. */
    private String sourceRows(int from, int to) throws Exception {
        return pg.one("SELECT " + ROWS + " FROM items WHERE id BETWEEN " + from + " AND " + to)
                .get(0);
    }

    /** The source's row count and md5 over its rows. */
    private List<String> source() throws Exception {
        return pg.one("SELECT count(*), " + ROWS + " FROM items");
    }

    /** The sink table's row count, distinct {@code _skippr_id}s and md5 over its rows. */
    private List<String> synced() throws Exception {
        boolean exists =
                pg.one("SELECT to_regclass('\"" + sinkSchema + "\".items') IS NOT NULL")
                        .get(0)
                        .equals("t");
        if (!exists) {
            return List.of("0", "0", "");
        }
        return pg.one(
                "SELECT count(*), count(DISTINCT _skippr_id), "
                        + ROWS
                        + " FROM \""
                        + sinkSchema
                        + "\".items");
    }

    /**
     * The WAL's row count, distinct {@code _skippr_id}s and md5 over its rows, read with DuckDB.
     */
    private List<String> wal() throws Exception {
        List<String> files =
                new WalStore(disk.path().resolve("to_wal"))
                        .segments()
                        .getOrDefault("items", List.of());
        String list =
                files.stream()
                        .map(f -> "'" + f.replace("'", "''") + "'")
                        .collect(Collectors.joining(",", "[", "]"));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs =
                        db.createStatement()
                                .executeQuery(
                                        "SELECT count(*), count(DISTINCT _skippr_id), md5(string_agg(CAST(id AS VARCHAR) || ':' || name, ',' ORDER BY id)) FROM read_parquet("
                                                + list
                                                + ")")) {
            rs.next();
            return List.of(rs.getString(1), rs.getString(2), rs.getString(3));
        }
    }
}
