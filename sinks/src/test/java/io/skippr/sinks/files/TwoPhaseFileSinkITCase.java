package io.skippr.sinks.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.sinks.testing.DuckDb;
import io.skippr.sinks.testing.GeneratedRows;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The file sink under failures: every row lands exactly once, nothing uncommitted shows. */
class TwoPhaseFileSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;

    /** A bounded run of {@code pipeline} writing {@code rows} generated rows into {@code root}. */
    private void boundedRun(Path root, String pipeline, long rows, String name) throws Exception {
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        GeneratedRows.stream(env, rows, 1_000_000, -1, null)
                .sinkTo(
                        new TwoPhaseFileSink(
                                FileSinks.prepare(root, pipeline, true, FileFormat.PARQUET, null)));
        env.execute(name);
    }

    private StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                java.time.Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(150);
        }
        return env;
    }

    private static void assertExactlyOnce(Path root, long n) throws Exception {
        List<String> files = new CommitLog(root).committedFiles();
        assertThat(files).isNotEmpty();

        List<Object> row =
                DuckDb.row(
                        "SELECT count(*), count(DISTINCT _skippr_id), sum(n),"
                                + " min(n), max(n) FROM read_parquet($files)",
                        files);
        assertThat(row)
                .containsExactly(
                        n,
                        n,
                        BigInteger.valueOf(n * (n - 1) / 2).toString().equals(row.get(2).toString())
                                ? row.get(2)
                                : "sum mismatch",
                        0L,
                        n - 1);
        try (Stream<Path> all = Files.walk(root)) {
            List<String> visible =
                    all.filter(p -> p.toString().endsWith(".parquet"))
                            .filter(p -> !p.startsWith(root.resolve(".skippr-staging")))
                            .map(Path::toString)
                            .sorted()
                            .toList();
            assertThat(visible)
                    .as("every visible file is committed")
                    .containsExactlyInAnyOrderElementsOf(files);
        }
    }

    @Test
    void streamingWithAFailureMidStreamLosesAndDuplicatesNothing() throws Exception {
        long n = 4000;
        Path root = dir.resolve("out");
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
        FileSinkSettings settings =
                FileSinks.prepare(root, "orders", false, FileFormat.PARQUET, null);
        GeneratedRows.stream(env, n, 4000, 2500, dir.resolve("failed-once"))
                .sinkTo(new TwoPhaseFileSink(settings));
        env.execute("streaming exactly-once");

        assertThat(dir.resolve("failed-once")).as("the failure was injected").exists();
        assertExactlyOnce(root, n);
    }

    @Test
    void aBoundedRunCommitsOnceAtTheEndAndRecordsItsPosition() throws Exception {
        long n = 3000;
        Path root = dir.resolve("out");
        boundedRun(root, "orders", n, "bounded");

        assertExactlyOnce(root, n);
        CommitLog log = new CommitLog(root);
        assertThat(log.lastRun()).isEqualTo(1);
        assertThat(log.positions()).containsEntry("events", String.valueOf(n - 1));
        assertThat(log.commits()).as("one record per subtask").hasSize(2);
        assertThat(FileSinks.prepare(root, "orders", true, FileFormat.PARQUET, null).run())
                .as("the next run")
                .isEqualTo(2);
    }

    @Test
    void aBoundedRunThatOnlyPartlyCommittedIsUndoneAndItsPositionIgnored() throws Exception {
        long n = 600;
        Path root = dir.resolve("out");
        boundedRun(root, "orders", n, "first run");
        CommitLog log = new CommitLog(root);
        CommitLog.Commit lost = log.commits().get(1);
        Files.delete(
                root.resolve(lost.record())); // as if subtask 1 died before recording its commit

        assertThat(log.positions()).as("an incomplete run moves no position").isEmpty();
        FileSinks.prepare(root, "orders", true, FileFormat.PARQUET, null);

        assertThat(new CommitLog(root).commits()).isEmpty();
        try (Stream<Path> all = Files.walk(root)) {
            assertThat(all.filter(p -> p.toString().endsWith(".parquet"))).isEmpty();
        }
    }

    @Test
    void aRunThatDiedBetweenRenameAndRecordIsUndoneByTheNextBoundedRun() throws Exception {
        long n = 500;
        Path root = dir.resolve("out");
        boundedRun(root, "orders", n, "first run");
        Path orphan = root.resolve("events").resolve("orders-000002-000-000000.parquet");
        Files.copy(Path.of(new CommitLog(root).committedFiles().get(0)), orphan);
        Files.createDirectories(root.resolve(".skippr-staging/orders/2-0-0-abcd/events"));
        // another pipeline writing into the same folder, between its checkpoint and its commit
        Path theirs = root.resolve(".skippr-staging/refunds/7-0-0-ef01/events/refunds-7.parquet");
        Files.createDirectories(theirs.getParent());
        Files.writeString(theirs, "staged");

        FileSinkSettings next = FileSinks.prepare(root, "orders", true, FileFormat.PARQUET, null);

        assertThat(next.run()).isEqualTo(3);
        assertThat(orphan).doesNotExist();
        assertThat(root.resolve(".skippr-staging/orders")).doesNotExist();
        assertThat(theirs).as("another pipeline's staged file").hasContent("staged");
        assertExactlyOnce(root, n);
    }

    /** Records what the writers told it, and whether any commit existed when they first did. */
    private static final class RecordingCatalog implements TableCatalog {
        static final java.util.Queue<String> CALLS =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        static volatile Boolean committedAtFirstCall;
        private final String root;

        RecordingCatalog(Path root) {
            this.root = root.toString();
        }

        @Override
        public void prepare(io.skippr.core.record.StreamSchema schema, String partition) {
            synchronized (CALLS) {
                if (committedAtFirstCall == null) {
                    committedAtFirstCall = Files.exists(Path.of(root, "_skippr", "commits"));
                }
            }
            CALLS.add(schema.stream() + "/" + partition);
        }
    }

    @Test
    void filesRollBySizeIntoDailyPartitionsTheCatalogHeardOfBeforeAnyCommit() throws Exception {
        long n = 40;
        Path root = dir.resolve("out");
        RecordingCatalog.CALLS.clear();
        RecordingCatalog.committedAtFirstCall = null;
        String today = "dt=" + java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        FileSinkSettings settings =
                FileSinks.prepare(root, "orders", true, FileFormat.PARQUET, null)
                        .rolling(1, 0)
                        .partitioned(new RecordingCatalog(root));
        GeneratedRows.stream(env, n, 1_000_000, -1, null).sinkTo(new TwoPhaseFileSink(settings));
        env.execute("rolled and partitioned");

        List<String> keys = new CommitLog(root).committedKeys();
        assertThat(keys).as("a file per row at a roll size of one byte").hasSize((int) n);
        assertThat(keys).allMatch(k -> k.startsWith("events/" + today + "/orders-000001-"));
        assertThat(RecordingCatalog.CALLS).hasSize((int) n).containsOnly("events/" + today);
        assertThat(RecordingCatalog.committedAtFirstCall).isFalse();
        assertExactlyOnce(root, n);
    }

    @Test
    void filesRollOnceTheyHaveBeenOpenForTheRollInterval() throws Exception {
        long n = 60;
        Path root = dir.resolve("out");
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        FileSinkSettings settings =
                FileSinks.prepare(root, "orders", true, FileFormat.PARQUET, null)
                        .rolling(FileSinkSettings.DEFAULT_ROLL_BYTES, 20);
        // 200 rows a second across two subtasks: each subtask writes a row every 10 ms for 300 ms,
        // so a file open for 20 ms holds about 3 rows and each subtask rolls many times. The bound
        // asks only that each subtask rolled at least once: on a loaded machine a stalled writer
        // takes the rows that queued up meanwhile into one file (in CI, 19 files of 60 rows)
        GeneratedRows.stream(env, n, 200, -1, null).sinkTo(new TwoPhaseFileSink(settings));
        env.execute("rolled by time");

        assertThat(new CommitLog(root).committedKeys()).hasSizeGreaterThanOrEqualTo(4);
        assertExactlyOnce(root, n);
    }

    @Test
    void pipelinesSharingAFolderKeepTheirOwnCommitLogs() throws Exception {
        Path root = dir.resolve("out");
        boundedRun(root, "orders", 300, "orders");
        CommitLog ordersLog = new CommitLog(new LocalFileStore(root), "orders");
        Files.delete(root.resolve(ordersLog.commits().get(1).record())); // left half committed
        List<String> ordersFiles = new CommitLog(root).commits().get(0).files();

        boundedRun(root, "refunds", 200, "refunds");

        CommitLog refundsLog = new CommitLog(new LocalFileStore(root), "refunds");
        assertThat(refundsLog.lastRun()).as("runs are numbered per pipeline").isEqualTo(1);
        assertThat(refundsLog.positions()).containsExactly(java.util.Map.entry("events", "199"));
        assertThat(ordersLog.commits()).as("orders' unfinished run is orders' to undo").hasSize(1);
        for (String file : ordersFiles) {
            assertThat(root.resolve(file)).exists();
        }
        assertThat(ordersLog.positions()).isEmpty();

        FileSinks.prepare(root, "orders", true, FileFormat.PARQUET, null);
        assertThat(ordersLog.commits()).isEmpty();
        assertThat(refundsLog.commits()).hasSize(2);
        assertExactlyOnce(root, 200);
    }

    @Test
    void recordsFromBeforeLogsWerePerPipelineBelongToThePipelineTheirFilesNameOnly()
            throws Exception {
        Path root = dir.resolve("out");
        boundedRun(root, "orders", 300, "orders, as an older version would have recorded it");
        Path folder = root.resolve("_skippr/commits/orders");
        try (Stream<Path> records = Files.list(folder)) {
            for (Path record : records.toList()) {
                Files.move(record, root.resolve("_skippr/commits").resolve(record.getFileName()));
            }
        }
        Files.delete(folder);

        CommitLog orders = new CommitLog(new LocalFileStore(root), "orders");
        CommitLog refunds = new CommitLog(new LocalFileStore(root), "refunds");
        assertThat(orders.commits()).hasSize(2);
        assertThat(orders.positions()).containsExactly(java.util.Map.entry("events", "299"));
        assertThat(refunds.commits()).as("not refunds' records").isEmpty();
        assertThat(refunds.positions()).isEmpty();
        FileSinks.prepare(root, "refunds", true, FileFormat.PARQUET, null);
        assertExactlyOnce(root, 300);
    }
}
