package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import io.skippr.job.query.WalQuery;
import io.skippr.sinks.files.CommitLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state folder ({@code SKIPPR_STATE_DIR}) on a disk that fills up, or lost, with {@code
 * skipprd} running as its own process. The folder is a real 16 MiB tmpfs ({@link SmallDisk}) that
 * the full-disk cases fill to the last byte: each asserts what the user is told, that nothing
 * synced before is lost, and that once space is freed the pipeline carries on with every row
 * exactly once (counts, distinct {@code _skippr_id}s and an md5 over every row, against the
 * source). The lost-folder cases assert the warning that rows will be loaded again, and its absence
 * where loading them again is harmless.
 */
class StateFolderITCase {
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
                        + "  to_pg: {data_source: data_sources.app_db, data_sink: data_sinks.warehouse,"
                        + " write_mode: append}\n"
                        + "  to_wal: {data_source: data_sources.app_db}\n"
                        + "  to_pg_merge: {data_source: data_sources.app_db,"
                        + " data_sink: data_sinks.merged, write_mode: merge}\n"
                        + "  to_files: {data_source: data_sources.app_db, data_sink: data_sinks.files}\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("items", "updated_at")
                        + "data_sinks:\n  warehouse:\n"
                        + TestPostgres.sinkYaml(sinkSchema)
                        + "  merged:\n"
                        + TestPostgres.sinkYaml(sinkSchema + "_m")
                        + "  files:\n    LocalFile: {path: out, format: jsonl}\n");
        disk = new SmallDisk(dir.resolve("state"), 16);
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            if (disk != null) {
                disk.close();
            }
        } finally {
            pg.exec(
                    "DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE",
                    "DROP SCHEMA IF EXISTS \"" + sinkSchema + "_m\" CASCADE");
            pg.close();
        }
    }

    @Test
    void continuousSyncSaysTheStateFolderIsFullLosesNothingAndCarriesOnOnceFreed()
            throws Exception {
        Process sync = skipprd("sync", Map.of(), "to_pg");
        try {
            await(sync, "sync", "the first 2000 rows land", () -> synced().get(0).equals("2000"));

            disk.fill();
            insert(2001, 2500);
            Pattern full =
                    Pattern.compile(
                            "warning: (checkpoint \\d+|a checkpoint) failed: the state folder "
                                    + Pattern.quote(disk.path().resolve("to_pg").toString())
                                    + " is out of room \\([^)]+ free of 16\\.0 MiB\\); free space"
                                    + " there\\. Until a checkpoint completes nothing new is"
                                    + " committed, and nothing is lost\\.( \\(Flink: .+\\))?\n");
            await(
                    sync,
                    "sync",
                    "skipprd says the state folder is full",
                    () -> full.matcher(err("sync")).find());
            String logWarning =
                    "warning: cannot write the log file "
                            + disk.path().resolve("to_pg/logs/skipprd.log")
                            + ": No space left on device; its lines are lost until it can be"
                            + " written again";
            await(
                    sync,
                    "sync",
                    "skipprd says its log is lost",
                    () -> err("sync").contains(logWarning));
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
            await(sync, "sync", "all 2500 rows land", () -> synced().get(0).equals("2500"));
            assertThat(synced()).containsExactly("2500", "2500", source().get(1));
            Pattern recovered =
                    Pattern.compile(
                            "\ncheckpoint \\d+ completed: committing again after \\d+ failed"
                                    + " checkpoints?\n");
            await(
                    sync,
                    "sync",
                    "skipprd says it commits again",
                    () -> recovered.matcher(err("sync")).find());
            assertThat(lines(err("sync"), "warning: cannot write the log file"))
                    .containsExactly(logWarning);
            assertThat(err("sync")).doesNotContain("\tat ");
        } finally {
            stop(sync);
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
                .as("a --once run tries again before it fails")
                .hasSizeBetween(1, 2)
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
                        "Free space on the disk the error names and run again: what earlier runs"
                                + " committed is kept, and the next run carries on from it.");
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

    /**
     * A continuous run whose state folder is gone carries on from the positions continuous runs
     * committed with their rows, says nothing, and loads no row again (on main it loaded the 500
     * rows of the lost run's checkpoints again, after a warning saying so).
     */
    @Test
    void continuousAppendWithoutItsCheckpointCarriesOnFromTheCommittedPositions() throws Exception {
        assertThat(once("first", "to_pg")).isZero();
        insert(2001, 2500);
        runThenLoseTheStateFolder("to_pg", () -> synced().get(0).equals("2500"));
        assertThat(err("sync"))
                .as("a first continuous run after a --once run loads nothing again")
                .doesNotContain("starts without its checkpoint");

        Process again = skipprd("again", Map.of(), "to_pg");
        try {
            insert(2501, 2600);
            await(
                    again,
                    "again",
                    "the 100 new rows, and no row again",
                    () -> synced().get(0).equals("2600"));
            assertThat(synced()).containsExactly("2600", "2600", sourceRows(1, 2600));
            assertThat(err("again")).doesNotContain("starts without its checkpoint");
        } finally {
            stop(again);
        }
    }

    @Test
    void continuousMergeWithoutItsCheckpointLoadsRowsAgainHarmlesslyAndSaysNothing()
            throws Exception {
        String merged = "\"" + sinkSchema + "_m\".items";
        runThenLoseTheStateFolder("to_pg_merge", () -> count(merged).equals("2000"));
        insert(2001, 2100);

        Process again = skipprd("again", Map.of(), "to_pg_merge");
        try {
            await(again, "again", "the new rows land", () -> count(merged).equals("2100"));
            assertThat(pg.one("SELECT count(*), " + ROWS + " FROM " + merged))
                    .containsExactlyElementsOf(source());
            assertThat(err("again")).doesNotContain("warning: pipeline");
        } finally {
            stop(again);
        }
    }

    /**
     * A continuous run into files whose state folder is gone carries on from the positions the lost
     * run committed with its files, and loads no row again (on main it loaded the 2,000 rows again,
     * after a warning saying so).
     */
    @Test
    void continuousFilesWithoutTheirCheckpointCarryOnFromTheCommittedPositions() throws Exception {
        Path out = dir.resolve("out");
        runThenLoseTheStateFolder("to_files", () -> new CommitLog(out).committedRows() == 2000);

        Process again = skipprd("again", Map.of(), "to_files");
        try {
            insert(2001, 2100);
            await(
                    again,
                    "again",
                    "the 100 new rows, and no row again",
                    () -> new CommitLog(out).committedRows() >= 2100);
            assertThat(new CommitLog(out).committedRows()).isEqualTo(2100);
            assertThat(err("again")).doesNotContain("starts without its checkpoint");
        } finally {
            stop(again);
        }
    }

    /**
     * Runs {@code pipeline} continuously until {@code landed}, stops it as Ctrl-C would, and
     * deletes its state folder.
     */
    private void runThenLoseTheStateFolder(
            String pipeline, java.util.concurrent.Callable<Boolean> landed) throws Exception {
        Process first = skipprd("sync", Map.of(), pipeline);
        try {
            await(first, "sync", "the first run's rows land", landed);
        } catch (Exception | AssertionError e) {
            stop(first);
            throw e;
        }
        assertThat(stop(first)).as("skipprd stops on SIGTERM").isTrue();
        try (var files = Files.walk(disk.path().resolve(pipeline))) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * Stops skipprd as Ctrl-C would, and kills it if it does not end within a minute; returns
     * whether Ctrl-C was enough.
     */
    private static boolean stop(Process sync) throws Exception {
        sync.destroy();
        if (sync.waitFor(60, TimeUnit.SECONDS)) {
            return true;
        }
        sync.destroyForcibly();
        sync.waitFor(30, TimeUnit.SECONDS);
        return false;
    }

    private String count(String table) throws Exception {
        boolean exists =
                pg.one("SELECT to_regclass('" + table.replace("'", "''") + "') IS NOT NULL")
                        .get(0)
                        .equals("t");
        return exists ? pg.one("SELECT count(*) FROM " + table).get(0) : "0";
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
        env.put("SKIPPR_FLINK_CONF_DIR", SkipprdProcess.fastCheckpoints(dir).toString());
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
        if (!run.waitFor(3, TimeUnit.MINUTES)) {
            run.destroyForcibly();
            throw new AssertionError(name + " did not end within 3 minutes:\n" + err(name));
        }
        return run.exitValue();
    }

    /** Waits for {@code condition} while skipprd runs; the name of its output is {@code name}. */
    private void await(
            Process process,
            String name,
            String what,
            java.util.concurrent.Callable<Boolean> condition)
            throws Exception {
        SkipprdProcess.await(process, Duration.ofMinutes(2), what, condition, () -> err(name));
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
     * The WAL's row count, distinct {@code _skippr_id}s and md5 over its rows, read as {@code
     * skipprd query} reads them.
     */
    private List<String> wal() throws Exception {
        return WalQuery.run(
                        disk.path().resolve("to_wal"),
                        "SELECT count(*), count(DISTINCT _skippr_id), md5(string_agg(CAST(id AS"
                                + " VARCHAR) || ':' || name, ',' ORDER BY id)) FROM items")
                .rows()
                .get(0);
    }
}
