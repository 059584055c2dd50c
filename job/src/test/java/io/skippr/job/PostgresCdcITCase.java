package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.cli.Skipprd;
import io.skippr.config.Config;
import io.skippr.config.ConfigException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.commons.lang3.exception.ExceptionUtils;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replication_method: cdc} from the real PostgreSQL (wal_level = logical) into a PostgreSQL
 * sink in {@code merge} mode: the destination equals the source by md5 per key after a snapshot and
 * inserts, updates and deletes, across {@code --once} runs and a continuous run's restart from its
 * checkpoint; the slot's confirmed LSN never passes what the destination committed.
 */
class PostgresCdcITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final String ROWS =
            "SELECT id, md5(concat_ws('|', id, name, amount, note)) FROM %s ORDER BY id";

    @TempDir Path dir;
    private TestPostgres source;
    private TestPostgres sink;
    private String slot;

    /** The source tables the pipeline reads. */
    private List<String> tables = List.of("items");

    /** More lines of the pipeline's entry, such as {@code soft_deletes: true}. */
    private String pipelineLines = "";

    /** The data sink's entry; null for the test's PostgreSQL schema. */
    private String sinkYaml;

    /** The continuous runs' parallelism. */
    private int parallelism = 2;

    @BeforeEach
    void tables() throws Exception {
        source = new TestPostgres("skippr_cdc_");
        sink = new TestPostgres("skippr_cdcd_");
        slot = "skippr_it_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        source.exec(
                "CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL,"
                        + " amount numeric(12,2), note text)",
                "INSERT INTO items SELECT i, 'item ' || i, i * 1.5, CASE WHEN i % 7 = 0 THEN"
                        + " NULL ELSE repeat('n', i % 50) END FROM generate_series(1, 3000) i");
    }

    @AfterEach
    void drop() throws Exception {
        try (Connection c = source.connect();
                Statement st = c.createStatement()) {
            dropSlot(c);
            st.execute("DROP PUBLICATION IF EXISTS \"" + slot + "\"");
        } finally {
            source.close();
            sink.close();
        }
    }

    /** Drops the test's slot once no walsender holds it (a cancelled job's may for a moment). */
    private void dropSlot(Connection c) throws Exception {
        await(
                "slot " + slot + " released",
                () ->
                        query(
                                        c,
                                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '"
                                                + slot
                                                + "' AND active")
                                .equals(List.of("0")));
        try (Statement st = c.createStatement()) {
            st.execute(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                            + " WHERE slot_name = '"
                            + slot
                            + "'");
        }
    }

    private PipelineGraph.Request request(boolean once, String extra) throws Exception {
        return request(once, extra, "merge");
    }

    private PipelineGraph.Request request(boolean once, String extra, String mode)
            throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                "pipelines:\n  orders:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.out\n    write_mode: "
                        + mode
                        + "\n"
                        + pipelineLines
                        + "data_sources:\n  app_db:\n"
                        + source.sourceYaml(tables, null)
                        + "      replication_method: cdc\n      slot_name: "
                        + slot
                        + "\n      publication: "
                        + slot
                        + "\n"
                        + extra
                        + "data_sinks:\n  out:\n"
                        + (sinkYaml != null ? sinkYaml : TestPostgres.sinkYaml(sink.schema)));
        return new PipelineGraph.Request(
                Config.load(file).getPipeline("orders"),
                once,
                TestPostgres.passwordEnv(),
                dir.resolve("state"));
    }

    private void once() throws Exception {
        once("");
    }

    /** A --once run with {@code extra} lines in the data source's settings. */
    private void once(String extra) throws Exception {
        StreamExecutionEnvironment env = TestFlink.env(false);
        PipelineGraph.Built built = PipelineGraph.build(env, request(true, extra));
        try {
            env.execute("cdc --once");
        } finally {
            built.afterRun().run(); // as skipprd and the job jar do once the job ended
        }
    }

    private JobClient start(Path restore) throws Exception {
        return start(restore, "merge");
    }

    private JobClient start(Path restore, String mode) throws Exception {
        StreamExecutionEnvironment env = TestFlink.env(true);
        env.setParallelism(parallelism);
        Configuration checkpoints = new Configuration();
        checkpoints.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                dir.resolve("checkpoints").toUri().toString());
        checkpoints.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        env.configure(checkpoints);
        PipelineGraph.build(env, request(false, "", mode));
        StreamGraph graph = env.getStreamGraph();
        if (restore != null) {
            graph.setSavepointRestoreSettings(
                    SavepointRestoreSettings.forPath(restore.toString(), false));
        }
        return env.executeAsync(graph);
    }

    private List<String> rows(TestPostgres db, String table) throws Exception {
        try (Connection c = db.connect()) {
            return rowsOf(c, String.format(ROWS, "\"" + db.schema + "\"." + table));
        }
    }

    private static List<String> rowsOf(Connection c, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1) + ":" + rs.getString(2));
            }
        }
        return rows;
    }

    private static List<String> query(Connection c, String sql) {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            List<String> row = new ArrayList<>();
            if (rs.next()) {
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
            }
            return row;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A --once run fails, and one exception of its chain says every one of {@code texts}. */
    private void assertOnceFailsWith(String... texts) {
        assertThatThrownBy(this::once)
                .satisfies(
                        e ->
                                assertThat(ExceptionUtils.getThrowableList(e))
                                        .anySatisfy(
                                                t -> assertThat(t.getMessage()).contains(texts)));
    }

    /** The one deadline-bound poll of these tests: the server's and the job's state move alone. */
    private static void await(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 90 s: " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }

    private boolean sinkEqualsSource() {
        try {
            return rows(sink, "items").equals(rows(source, "items"));
        } catch (Exception e) { // the table may not exist yet
            return false;
        }
    }

    /** Changes every row of {@code round}'s sets; how many row changes it made. */
    private long change(int round) throws Exception {
        int base = 10_000 * round;
        return changes(
                "INSERT INTO items SELECT i, 'new ' || i, i, NULL FROM generate_series("
                        + (base + 1)
                        + ", "
                        + (base + 200)
                        + ") i",
                "UPDATE items SET amount = amount + "
                        + round
                        + ", note = 'u"
                        + round
                        + "' WHERE id % 11 = "
                        + round % 11,
                "DELETE FROM items WHERE id % 13 = " + round % 13,
                "UPDATE items SET name = name || '+' WHERE id % 17 = " + round % 17,
                "DELETE FROM items WHERE id % 19 = " + round % 19);
    }

    /** Runs {@code sql} in the source schema; the rows the statements changed. */
    private long changes(String... sql) throws Exception {
        long changed = 0;
        try (Connection c = source.connect();
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO \"" + source.schema + "\"");
            for (String s : sql) {
                changed += st.executeUpdate(s);
            }
        }
        return changed;
    }

    /**
     * Each run applies exactly the changes since the last, and lets the slot go of the WAL before
     * its commit: the slot's restart LSN (where the server keeps WAL from) passes the previous
     * run's commit, also after a run in which no table of the pipeline changed.
     */
    @Test
    void onceRunsApplyExactlyTheChangesBetweenThemAndLetTheSlotGoOfTheirWal() throws Exception {
        once();
        assertThat(rows(sink, "items")).hasSize(3000).isEqualTo(rows(source, "items"));
        long first = committedLsn();
        // the first run ends at its snapshot's point, where its snapshot rows are: no change it
        // streamed can meet a snapshot row of its key in another writer subtask's commit
        try (Connection c = sink.connect()) {
            String point =
                    query(c, "SELECT max(_skippr_lsn) FROM \"" + sink.schema + "\".items").get(0);
            assertThat(first).isEqualTo(Long.parseUnsignedLong(point.substring(0, 16), 16));
        }

        String firstEnded = serverTime();
        change(1);
        boolean heldBack = olderTransactionOpen(firstEnded);
        source.exec("CHECKPOINT"); // logs running transactions: a point the slot can move to
        once();
        assertThat(rows(sink, "items")).isEqualTo(rows(source, "items"));
        long second = committedLsn();
        // the run moved the idle slot to its commit (before: to the previous run's, at its start)
        assertThat(confirmed()).isEqualTo(second);
        if (!heldBack) { // before: the slot kept the WAL from before the first run's commit
            assertThat(slotLsn("restart_lsn")).isGreaterThanOrEqualTo(first);
        }

        change(2);
        once();
        List<String> expected = rows(source, "items");
        assertThat(rows(sink, "items")).isEqualTo(expected);
        assertThat(expected.size()).isLessThan(3400); // the deletes happened
        long third = committedLsn();
        assertThat(third).isGreaterThan(second);

        String thirdEnded = serverTime();
        heldBack = olderTransactionOpen(thirdEnded);
        source.exec("CHECKPOINT");
        once();
        assertThat(rows(sink, "items")).isEqualTo(expected);
        // before: a run without changes of items committed the position it started from
        assertThat(committedLsn()).isGreaterThan(third);
        assertThat(confirmed()).isEqualTo(committedLsn());
        if (!heldBack) {
            assertThat(slotLsn("restart_lsn")).isGreaterThanOrEqualTo(third);
        }
    }

    private String serverTime() throws Exception {
        try (Connection c = source.connect()) {
            return query(c, "SELECT clock_timestamp()::text").get(0);
        }
    }

    /**
     * Whether a transaction of another test in the test database, begun before {@code since}, is
     * still open (or prepared): the server's restart point cannot pass its start, whatever Skippr
     * confirms. Asked before the CHECKPOINT whose point the slot moves to: a transaction open then
     * and begun before {@code since} was open at this query too.
     */
    private boolean olderTransactionOpen(String since) throws Exception {
        try (Connection c = source.connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "SELECT (SELECT count(*) FROM pg_stat_activity"
                                        + " WHERE datname = current_database()"
                                        + " AND backend_xid IS NOT NULL"
                                        + " AND xact_start < ?::timestamptz)"
                                        + " + (SELECT count(*) FROM pg_prepared_xacts"
                                        + " WHERE database = current_database())")) {
            st.setString(1, since);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    /** {@code column} of the test's slot as bytes from 0/0. */
    private long slotLsn(String column) throws Exception {
        try (Connection c = source.connect();
                PreparedStatement st =
                        c.prepareStatement(
                                "SELECT (\""
                                        + column
                                        + "\" - '0/0'::pg_lsn)::bigint"
                                        + " FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }

    /** A second table, {@code extra}, of 20,000 rows with the columns of {@code items}. */
    private void createExtra() throws Exception {
        source.exec(
                "CREATE TABLE extra (id bigint PRIMARY KEY, name text NOT NULL,"
                        + " amount numeric(12,2), note text)",
                "INSERT INTO extra SELECT i, 'extra ' || i, i * 2.5, repeat('e', i % 40)"
                        + " FROM generate_series(1, 20000) i");
    }

    /**
     * Inserts, updates and deletes in {@code extra}, three transactions a round, on another thread
     * until closed (at least three rounds).
     */
    private final class ExtraWriter implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final CompletableFuture<Integer> rounds;

        ExtraWriter() {
            rounds = CompletableFuture.supplyAsync(this::write);
        }

        private int write() {
            int round = 0;
            try (Connection c = source.connect();
                    Statement st = c.createStatement()) {
                st.execute("SET search_path TO \"" + source.schema + "\"");
                while (!stop.get() || round < 3) {
                    round++;
                    int base = 100_000 + 10 * round;
                    st.executeUpdate(
                            "INSERT INTO extra SELECT i, 'w ' || i, i, NULL FROM generate_series("
                                    + base
                                    + ", "
                                    + (base + 9)
                                    + ") i");
                    st.executeUpdate(
                            "UPDATE extra SET amount = amount + 1, note = 'r"
                                    + round
                                    + "' WHERE id % 97 = "
                                    + round % 97);
                    st.executeUpdate(
                            "DELETE FROM extra WHERE id IN ("
                                    + (7 * round)
                                    + ", "
                                    + (base + 3)
                                    + ")");
                    LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // pacing, not waiting
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return round;
        }

        @Override
        public void close() throws Exception {
            stop.set(true);
            assertThat(rounds.get()).isGreaterThanOrEqualTo(3);
        }
    }

    private boolean sinkEquals(String table) {
        try {
            return rows(sink, table).equals(rows(source, table));
        } catch (Exception e) { // the table may not exist yet
            return false;
        }
    }

    private boolean sinkHas(String table) {
        try (Connection c = sink.connect()) {
            return query(
                            c,
                            "SELECT count(*) FROM information_schema.tables WHERE table_schema = '"
                                    + sink.schema
                                    + "' AND table_name = '"
                                    + table
                                    + "'")
                    .equals(List.of("1"));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The temporary slots of added tables' snapshots still on the server. */
    private long temporarySlots() {
        try (Connection c = source.connect()) {
            return Long.parseLong(
                    query(
                                    c,
                                    "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE '"
                                            + slot
                                            + "\\_add\\_%'")
                            .get(0));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A table added to the configuration of a continuous pipeline, restored from its checkpoint:
     * its rows, changed before, while and after it is snapshotted, reach the destination once (md5
     * per key equal), and the first table is unaffected.
     */
    @Test
    void aTableAddedToAContinuousPipelineIsSnapshottedThenStreamedAfterARestore() throws Exception {
        createExtra();
        JobClient first = start(null);
        try {
            await("snapshot in the destination", this::sinkEqualsSource);
            change(1);
            await("round 1 in the destination", this::sinkEqualsSource);
        } finally {
            first.cancel().get();
            first.getJobExecutionResult().handle((r, e) -> null).get();
        }
        assertThat(sinkHas("extra")).isFalse();
        tables = List.of("items", "extra");
        JobClient second = null;
        try {
            try (ExtraWriter writer = new ExtraWriter()) {
                second = start(latestCheckpoint());
                await("extra in the destination", () -> sinkHas("extra"));
                change(2);
            }
            changes(
                    "UPDATE extra SET name = name || '!' WHERE id % 5 = 0",
                    "DELETE FROM extra WHERE id % 31 = 0");
            change(3);
            await("items and extra equal", () -> sinkEquals("items") && sinkEquals("extra"));
            assertThat(rows(sink, "extra")).hasSizeGreaterThan(18_000);
            assertConfirmedNotPastCommitted();
            await("temporary slot dropped", () -> temporarySlots() == 0);
        } finally {
            if (second != null) {
                second.cancel().get();
                second.getJobExecutionResult().handle((r, e) -> null).get();
            }
        }
    }

    /**
     * A table added between {@code --once} runs: the run on the committed positions snapshots it
     * while it changes, and the next applies the changes after.
     */
    @Test
    void aTableAddedBetweenOnceRunsIsSnapshottedThenStreamed() throws Exception {
        createExtra();
        once();
        change(1);
        tables = List.of("items", "extra");
        try (ExtraWriter writer = new ExtraWriter()) {
            once();
        }
        assertThat(rows(sink, "items")).isEqualTo(rows(source, "items"));
        assertThat(temporarySlots()).isZero();
        changes(
                "UPDATE extra SET name = name || '!' WHERE id % 5 = 0",
                "DELETE FROM extra WHERE id % 31 = 0");
        change(2);
        once();
        assertThat(rows(sink, "items")).isEqualTo(rows(source, "items"));
        assertThat(rows(sink, "extra")).hasSizeGreaterThan(18_000).isEqualTo(rows(source, "extra"));
    }

    @Test
    void aSlotKeepingMoreWalThanItsBoundIsNamedWhenTheStreamStarts() throws Exception {
        String bound = "      slot_wal_warning_mb: 1\n";
        try (LogCapture log = new LogCapture("io.skippr.sources.postgres.CdcSourceReader")) {
            once(bound); // a new slot keeps nothing yet
            // about 3 MB of WAL the slot keeps until the next run confirms it
            changes("UPDATE items SET note = repeat('w', 1000)");
            once(bound);
            assertThat(log.messages())
                    .filteredOn(m -> m.startsWith("replication slot " + slot + " keeps "))
                    .singleElement()
                    .satisfies(
                            m ->
                                    assertThat(m)
                                            .endsWith(
                                                    " MiB of WAL on the server (warning above 1.0"
                                                            + " MiB); PostgreSQL cannot recycle it"
                                                            + " until the pipeline confirms the"
                                                            + " changes"));
        }
        assertThat(rows(sink, "items")).hasSize(3000).isEqualTo(rows(source, "items"));
    }

    @Test
    void continuousSnapshotThenChangesAcrossARestartFromTheCheckpoint() throws Exception {
        JobClient first = start(null);
        try {
            await("snapshot in the destination", this::sinkEqualsSource);
            change(1);
            await("round 1 in the destination", this::sinkEqualsSource);
            // the slot moves while the job runs, to what the destination committed
            await("slot confirmed to the committed LSN", () -> confirmed() == committedLsnOrZero());
            assertConfirmedNotPastCommitted();
            // 40 MB of WAL without a change of items: the slot moves past it all the same
            long quiet = confirmed();
            source.exec(
                    "CREATE TABLE other (id int, pad text)",
                    "INSERT INTO other SELECT i, repeat('p', 200) FROM generate_series(1, 150000) i");
            await("slot moved past WAL without changes", () -> confirmed() > quiet + 16_000_000);
            assertConfirmedNotPastCommitted();
        } finally {
            first.cancel().get();
            first.getJobExecutionResult().handle((r, e) -> null).get();
        }
        change(2); // while the pipeline is stopped
        Path checkpoint = latestCheckpoint();
        JobClient second = start(checkpoint);
        try {
            change(3);
            await("rounds 2 and 3 in the destination", this::sinkEqualsSource);
            assertConfirmedNotPastCommitted();
        } finally {
            second.cancel().get();
            second.getJobExecutionResult().handle((r, e) -> null).get();
        }
    }

    /**
     * Append mode: every snapshot row and every change once, a transaction open across checkpoints
     * and one committed while the pipeline was stopped included; the last row per key is the
     * source's row, or a delete.
     */
    @Test
    void appendHasEveryChangeOnceAcrossCheckpointsAndARestart(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        long changed = 0;
        JobClient first = start(null, "append");
        try (Connection open = source.connect();
                Connection acrossStop = source.connect()) {
            await("snapshot in the destination", () -> count("TRUE") == 3000);
            open.setAutoCommit(false);
            try (Statement st = open.createStatement()) {
                st.execute("SET search_path TO \"" + source.schema + "\"");
                changed +=
                        st.executeUpdate(
                                "INSERT INTO items SELECT i, 'open ' || i, 1, NULL"
                                        + " FROM generate_series(900001, 900050) i");
                changed += st.executeUpdate("UPDATE items SET note = 'open' WHERE id > 900040");
            }
            changed += change(1);
            awaitCheckpoints(cluster, first, 2); // the open transaction spans them
            open.commit();
            await("round 1 and the open transaction", this::lastPerKeyEqualsSource);
            // a transaction open when the pipeline stops, committed while it is stopped
            acrossStop.setAutoCommit(false);
            try (Statement st = acrossStop.createStatement()) {
                changed +=
                        st.executeUpdate(
                                "UPDATE \""
                                        + source.schema
                                        + "\".items SET amount = 0 WHERE id <= 30");
            }
            first.cancel().get();
            first.getJobExecutionResult().handle((r, e) -> null).get();
            acrossStop.commit();
        } finally {
            first.cancel().handle((r, e) -> null).get();
        }
        changed += change(2);
        JobClient second = start(latestCheckpoint(), "append");
        try {
            changed += change(3);
            await("rounds 2 and 3", this::lastPerKeyEqualsSource);
        } finally {
            second.cancel().get();
            second.getJobExecutionResult().handle((r, e) -> null).get();
        }
        assertThat(count("_skippr_op = 'snapshot'")).isEqualTo(3000);
        assertThat(count("_skippr_op <> 'snapshot'")).isEqualTo(changed);
        // every change row says whether it deletes (_skippr_deleted)
        assertThat(count("_skippr_deleted IS DISTINCT FROM (_skippr_op = 'delete')")).isZero();
        assertThat(count("_skippr_deleted")).isPositive();
        try (Connection c = sink.connect()) {
            assertThat(
                            query(
                                    c,
                                    "SELECT count(DISTINCT _skippr_lsn) FROM \""
                                            + sink.schema
                                            + "\".items WHERE _skippr_op <> 'snapshot'"))
                    .containsExactly(Long.toString(changed));
        }
    }

    /**
     * Append mode, restored from a checkpoint taken in the middle of the first snapshot: what was
     * read before it keeps its rows (at the slot's point) and every change after that point; the
     * rest is read again in a later snapshot, its rows at that snapshot's point, and only its later
     * changes follow. So every change is one row, once, and the last row per key is the source's.
     */
    @Test
    void appendRestoredInTheMiddleOfTheSnapshotHasEveryChangeOnce() throws Exception {
        MiddleOfSnapshot run = restoreInTheMiddleOfTheSnapshot("append");
        long after;
        long readBefore;
        try {
            await("the source, last row per key", this::lastPerKeyEqualsSource);
            // the keys read before the restore: those of the snapshot rows at the first point
            readBefore = firstPointKeys();
            assertThat(readBefore)
                    .as("the highest key of the snapshot rows at the lowest point")
                    .isPositive()
                    .isLessThan(250_000); // the rest was read again at a later point
            long readAgain;
            try (Connection c = source.connect()) {
                readAgain =
                        Long.parseLong(
                                query(
                                                c,
                                                "SELECT count(*) FROM \""
                                                        + source.schema
                                                        + "\".items WHERE id > "
                                                        + readBefore)
                                        .get(0));
            }
            // keys 1 to 250,000 at the first point: the first readBefore keys were read then
            assertThat(count("_skippr_op = 'snapshot' AND id <= " + readBefore))
                    .isEqualTo(readBefore);
            assertThat(count("_skippr_op = 'snapshot' AND id > " + readBefore))
                    .isEqualTo(readAgain);
            assertThat(snapshotPoints()).isEqualTo(2);
            after = changes(middleRound(3));
            await("round 3, last row per key", this::lastPerKeyEqualsSource);
        } finally {
            run.job().cancel().get();
            run.job().getJobExecutionResult().handle((r, e) -> null).get();
        }
        long changedBefore = run.changed().stream().filter(id -> id <= readBefore).count();
        assertThat(count("_skippr_op <> 'snapshot'")).isEqualTo(changedBefore + after);
        assertThat(count("_skippr_deleted IS DISTINCT FROM (_skippr_op = 'delete')")).isZero();
        await("temporary slot dropped", () -> temporarySlots() == 0);
    }

    /** The same restore in merge mode: the destination equals the source. */
    @Test
    void mergeRestoredInTheMiddleOfTheSnapshotEqualsTheSource() throws Exception {
        MiddleOfSnapshot run = restoreInTheMiddleOfTheSnapshot("merge");
        try {
            await("the source", this::sinkEqualsSource);
            changes(middleRound(3));
            await("round 3", this::sinkEqualsSource);
            await("temporary slot dropped", () -> temporarySlots() == 0);
        } finally {
            run.job().cancel().get();
            run.job().getJobExecutionResult().handle((r, e) -> null).get();
        }
    }

    /** In append mode: the highest key of the snapshot rows at the lowest snapshot point. */
    private long firstPointKeys() throws Exception {
        try (Connection c = sink.connect()) {
            String items = "\"" + sink.schema + "\".items";
            return Long.parseLong(
                    query(
                                    c,
                                    "SELECT max(id) FROM "
                                            + items
                                            + " WHERE _skippr_op = 'snapshot' AND _skippr_lsn ="
                                            + " (SELECT min(_skippr_lsn) FROM "
                                            + items
                                            + " WHERE _skippr_op = 'snapshot')")
                            .get(0));
        }
    }

    /** In append mode: how many snapshot points the snapshot rows carry. */
    private long snapshotPoints() throws Exception {
        try (Connection c = sink.connect()) {
            return Long.parseLong(
                    query(
                                    c,
                                    "SELECT count(DISTINCT _skippr_lsn) FROM \""
                                            + sink.schema
                                            + "\".items WHERE _skippr_op = 'snapshot'")
                            .get(0));
        }
    }

    /**
     * A restored run of the middle of the snapshot ({@link #restoreInTheMiddleOfTheSnapshot}).
     *
     * @param changed the keys of the rows changed while it was stopped, one per row change
     */
    private record MiddleOfSnapshot(JobClient job, List<Long> changed) {}

    /**
     * A continuous run of parallelism 1 over 250,000 rows (three key-range splits, read one after
     * the other), stopped before its snapshot was read: once some of its rows are committed (a
     * checkpoint in the middle of the snapshot completed) and while a split's COPY holds its lock
     * on the table, another session asks for an ACCESS EXCLUSIVE lock, which waits for that read to
     * end, and the next split's read waits behind it, so at least one split is never read. The run
     * is cancelled (the waiting read cancelled on the server), the source changed in every split's
     * range (inserts, updates, deletes), and the run restored from its last checkpoint.
     */
    private MiddleOfSnapshot restoreInTheMiddleOfTheSnapshot(String mode) throws Exception {
        parallelism = 1;
        source.exec(
                "INSERT INTO items SELECT i, 'item ' || i, i * 1.5, repeat('m', i % 30)"
                        + " FROM generate_series(3001, 250000) i");
        String items = "\"" + source.schema + "\".items";
        String copying =
                "SELECT a.pid FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid"
                        + " WHERE a.query LIKE 'COPY (SELECT %' AND l.relation = '"
                        + items.replace("'", "''")
                        + "'::regclass AND l.mode = 'AccessShareLock' AND l.granted = ";
        JobClient first = start(null, mode);
        try (Connection watch = source.connect();
                Connection gate = source.connect()) {
            await("some snapshot rows committed", () -> count("TRUE") > 0);
            await("a split read", () -> !query(watch, copying + "true").isEmpty());
            gate.setAutoCommit(false);
            CompletableFuture<Void> locked =
                    CompletableFuture.runAsync(
                            () -> {
                                try (Statement st = gate.createStatement()) {
                                    st.execute("LOCK TABLE " + items + " IN ACCESS EXCLUSIVE MODE");
                                } catch (SQLException e) {
                                    throw new IllegalStateException(e);
                                }
                            });
            await("a later split waiting", () -> !query(watch, copying + "false").isEmpty());
            String held = query(watch, copying + "false").get(0);
            locked.get();
            first.cancel().get();
            try (Statement st = watch.createStatement()) {
                st.execute("SELECT pg_cancel_backend(" + held + ")"); // its task can then end
            }
            first.getJobExecutionResult().handle((r, e) -> null).get();
            gate.commit();
        } finally {
            first.cancel().handle((r, e) -> null).get();
        }
        List<Long> changed = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            changed.addAll(changedKeys(middleRound(round)));
        }
        return new MiddleOfSnapshot(start(latestCheckpoint(), mode), changed);
    }

    /** Inserts, updates and deletes in every split's key range. */
    private static String[] middleRound(int round) {
        return new String[] {
            "UPDATE items SET amount = amount + "
                    + round
                    + ", note = 'u"
                    + round
                    + "' WHERE id % 997 = "
                    + round,
            "DELETE FROM items WHERE id % 1009 = " + round,
            "INSERT INTO items SELECT i, 'again ' || i, "
                    + round
                    + ", NULL FROM generate_series(1, 250000) i WHERE i % 1009 = "
                    + round
                    + " AND i % 2 = 0",
            "INSERT INTO items SELECT i, 'new ' || i, i, NULL FROM generate_series("
                    + (300_000 + 1000 * round)
                    + ", "
                    + (300_099 + 1000 * round)
                    + ") i",
            "UPDATE items SET name = name || '+' WHERE id % 1013 = " + round
        };
    }

    /** Runs {@code sql} in the source schema; the keys of the rows changed, one per row change. */
    private List<Long> changedKeys(String... sql) throws Exception {
        List<Long> keys = new ArrayList<>();
        try (Connection c = source.connect();
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO \"" + source.schema + "\"");
            for (String s : sql) {
                try (ResultSet rs = st.executeQuery(s + " RETURNING id")) {
                    while (rs.next()) {
                        keys.add(rs.getLong(1));
                    }
                }
            }
        }
        return keys;
    }

    private long count(String where) {
        try (Connection c = sink.connect()) {
            return Long.parseLong(
                    query(c, "SELECT count(*) FROM \"" + sink.schema + "\".items WHERE " + where)
                            .get(0));
        } catch (Exception e) { // not created yet
            return -1;
        }
    }

    /** In append mode: per key, the row of the highest _skippr_lsn is the source's, or a delete. */
    private boolean lastPerKeyEqualsSource() {
        try (Connection c = sink.connect()) {
            List<String> last =
                    rowsOf(
                            c,
                            "SELECT id, md5 FROM (SELECT DISTINCT ON (id) id,"
                                    + " md5(concat_ws('|', id, name, amount, note)), _skippr_op"
                                    + " FROM \""
                                    + sink.schema
                                    + "\".items ORDER BY id, _skippr_lsn DESC) l"
                                    + " WHERE _skippr_op <> 'delete' ORDER BY id");
            return last.equals(rows(source, "items"));
        } catch (Exception e) {
            return false;
        }
    }

    private static void awaitCheckpoints(MiniCluster cluster, JobClient job, int more) {
        long start = completed(cluster, job);
        await(more + " more checkpoints", () -> completed(cluster, job) >= start + more);
    }

    private static long completed(MiniCluster cluster, JobClient job) {
        try {
            var stats =
                    cluster.getExecutionGraph(job.getJobID()).get().getCheckpointStatsSnapshot();
            return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * An update that leaves a TOASTed value unchanged: PostgreSQL does not send it; under REPLICA
     * IDENTITY FULL it comes from the old row, so the destination keeps it (md5 per key equal).
     */
    @Test
    void anUnchangedToastedValueIsKeptUnderReplicaIdentityFull() throws Exception {
        // 40 kB of md5 text: stored out of line, not compressible below the TOAST threshold
        source.exec(
                "ALTER TABLE items REPLICA IDENTITY FULL",
                "UPDATE items SET note = (SELECT string_agg(md5(id::text || g::text), '')"
                        + " FROM generate_series(1, 1250) g) WHERE id <= 20");
        once();
        assertThat(rows(sink, "items")).isEqualTo(rows(source, "items"));

        changes("UPDATE items SET amount = amount + 1 WHERE id <= 20");
        once();
        assertThat(rows(sink, "items")).isEqualTo(rows(source, "items"));
        try (Connection c = sink.connect()) {
            assertThat(
                            query(
                                    c,
                                    "SELECT count(*), min(length(note)) FROM \""
                                            + sink.schema
                                            + "\".items WHERE id <= 20"))
                    .containsExactly("20", "40000");
        }
    }

    /** Under REPLICA IDENTITY DEFAULT the same update fails the run with the fix, never a NULL. */
    @Test
    void anUnchangedToastedValueUnderDefaultFailsWithTheFix() throws Exception {
        source.exec(
                "UPDATE items SET note = (SELECT string_agg(md5(id::text || g::text), '')"
                        + " FROM generate_series(1, 1250) g) WHERE id <= 20");
        once();
        changes("UPDATE items SET amount = amount + 1 WHERE id <= 20");
        assertOnceFailsWith(
                "left TOASTed column \"note\" unchanged and PostgreSQL did not send its value:"
                        + " run ALTER TABLE \""
                        + source.schema
                        + "\".\"items\" REPLICA IDENTITY FULL so updates carry the whole old row");
        try (Connection c = sink.connect()) { // the failed run committed nothing
            assertThat(
                            query(
                                    c,
                                    "SELECT count(*) FROM \""
                                            + sink.schema
                                            + "\".items WHERE id <= 20 AND length(note) = 40000"))
                    .containsExactly("20");
        }
    }

    private static final String EVOLVED_ROWS =
            "SELECT id, md5(concat_ws('|', id, name, amount, extra, qty, code)) FROM %s ORDER BY id";

    private List<String> evolvedRows(TestPostgres db) throws Exception {
        try (Connection c = db.connect()) {
            return rowsOf(c, String.format(EVOLVED_ROWS, "\"" + db.schema + "\".items"));
        }
    }

    private boolean sinkEqualsSourceEvolved() {
        try {
            return evolvedRows(sink).equals(evolvedRows(source));
        } catch (Exception e) { // the columns may not be there yet
            return false;
        }
    }

    /** ADD COLUMN with changes before and after it, in one transaction and the next. */
    private void addColumns() throws Exception {
        change(1); // under the old columns
        changes(
                "ALTER TABLE items ADD COLUMN extra text, ADD COLUMN qty integer,"
                        + " ADD COLUMN code varchar(10)",
                "UPDATE items SET extra = 'x' || id, qty = id, code = 'c' || (id % 1000)"
                        + " WHERE id % 5 = 0",
                "INSERT INTO items SELECT i, 'added ' || i, i, NULL, 'e' || i, i, 'k'"
                        + " FROM generate_series(50001, 50100) i");
    }

    /**
     * Widens qty int -> bigint and code varchar(10) -> varchar(50), drops note, writes past both.
     */
    private void widenAndDrop() throws Exception {
        changes(
                "ALTER TABLE items ALTER COLUMN qty TYPE bigint",
                "ALTER TABLE items ALTER COLUMN code TYPE varchar(50)",
                "UPDATE items SET qty = 3000000000 + id, code = repeat('w', 40) WHERE id % 9 = 0",
                "ALTER TABLE items DROP COLUMN note",
                "INSERT INTO items SELECT i, 'late ' || i, i, 'l', 4000000000 + i, repeat('z', 45)"
                        + " FROM generate_series(60001, 60050) i",
                "UPDATE items SET name = name || '#' WHERE id % 23 = 0",
                "DELETE FROM items WHERE id % 29 = 0");
    }

    private String sinkColumnType(String column) throws Exception {
        try (Connection c = sink.connect()) {
            return query(
                            c,
                            "SELECT data_type FROM information_schema.columns WHERE table_schema = '"
                                    + sink.schema
                                    + "' AND table_name = 'items' AND column_name = '"
                                    + column
                                    + "'")
                    .stream()
                    .findFirst()
                    .orElse("missing");
        }
    }

    /**
     * Schema changes between --once runs reach the destination as the stream's schema versions: ADD
     * COLUMN (changes before and after it), int -> bigint and varchar(10) -> varchar(50) widened, a
     * dropped column kept in the destination (rows after the drop hold NULL in it).
     */
    @Test
    void onceRunsCarryAddedWidenedAndDroppedColumns() throws Exception {
        once();
        assertThat(rows(sink, "items")).hasSize(3000).isEqualTo(rows(source, "items"));

        addColumns();
        once();
        assertThat(rows(sink, "items")).isEqualTo(rows(source, "items"));
        List<String> added = evolvedRows(source);
        assertThat(evolvedRows(sink)).hasSize(added.size()).isEqualTo(added);
        assertThat(sinkColumnType("qty")).isEqualTo("integer");

        widenAndDrop();
        once();
        List<String> expected = evolvedRows(source);
        assertThat(evolvedRows(sink)).hasSize(expected.size()).isEqualTo(expected);
        assertThat(sinkColumnType("qty")).isEqualTo("bigint");
        assertThat(sinkColumnType("note")).isEqualTo("text"); // dropped in the source, kept
        String late = "SELECT count(*) FROM \"%s\".items WHERE id > 60000";
        List<String> inserted;
        try (Connection c = source.connect()) {
            inserted = query(c, String.format(late, source.schema));
        }
        try (Connection c = sink.connect()) {
            assertThat(inserted).isNotEqualTo(List.of("0"));
            assertThat(query(c, String.format(late + " AND note IS NULL", sink.schema)))
                    .isEqualTo(inserted);
        }
    }

    /**
     * A type change the destination refuses (integer -> text) fails the --once run with the
     * destination's message and commits nothing; after the destination's column is altered by hand
     * the rerun applies every change.
     */
    @Test
    void aTypeChangeTheDestinationRefusesFailsThenLoadsOnceAlteredByHand() throws Exception {
        once();
        changes("ALTER TABLE items ADD COLUMN qty integer", "UPDATE items SET qty = id");
        once();
        assertThat(sinkColumnType("qty")).isEqualTo("integer");
        List<String> before = rows(sink, "items");
        long committed = committedLsn();

        changes(
                "ALTER TABLE items ALTER COLUMN qty TYPE text",
                "UPDATE items SET qty = 'q' || id, name = name || '!' WHERE id % 3 = 0");
        assertOnceFailsWith(
                "Cannot load stream items into",
                "column \"qty\" is integer there, and the stream now sends");
        assertThat(rows(sink, "items")).isEqualTo(before);
        assertThat(committedLsn()).isEqualTo(committed);

        sink.exec("ALTER TABLE \"" + sink.schema + "\".items ALTER COLUMN qty TYPE text");
        once();
        String withQty =
                "SELECT id, md5(concat_ws('|', id, name, amount, note, qty)) FROM %s ORDER BY id";
        try (Connection s = source.connect();
                Connection d = sink.connect()) {
            assertThat(rowsOf(d, String.format(withQty, "\"" + sink.schema + "\".items")))
                    .hasSize(3000)
                    .isEqualTo(
                            rowsOf(s, String.format(withQty, "\"" + source.schema + "\".items")));
        }
    }

    /** The same schema changes while a continuous run streams them. */
    @Test
    void continuousRunCarriesAddedWidenedAndDroppedColumns() throws Exception {
        JobClient job = start(null);
        try {
            await("snapshot in the destination", this::sinkEqualsSource);
            addColumns();
            await("added columns in the destination", this::sinkEqualsSourceEvolved);
            widenAndDrop();
            await("widened columns in the destination", this::sinkEqualsSourceEvolved);
            assertThat(sinkColumnType("qty")).isEqualTo("bigint");
            assertThat(sinkColumnType("note")).isEqualTo("text");
            assertConfirmedNotPastCommitted();
        } finally {
            job.cancel().get();
            job.getJobExecutionResult().handle((r, e) -> null).get();
        }
    }

    @Test
    void aTableWithoutKeyOrFullReplicaIdentityIsRefusedWithTheFix() throws Exception {
        source.exec("ALTER TABLE items DROP CONSTRAINT items_pkey");
        assertThatThrownBy(() -> PipelineGraph.build(TestFlink.env(false), request(true, "")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "replication_method cdc needs a primary key or REPLICA IDENTITY FULL on"
                                + " every table, so updates and deletes name their row, and \""
                                + source.schema
                                + "\".\"items\" has neither: add a primary key, or run ALTER"
                                + " TABLE \""
                                + source.schema
                                + "\".\"items\" REPLICA IDENTITY FULL");
    }

    /**
     * Three --once runs with inserts, updates and deletes between, the first run's deleted keys
     * partly inserted again; the destination's rows by key, with {@code _skippr_deleted} and md5.
     */
    private void onceWithSoftDeletes(SoftDeleteRows destination) throws Exception {
        pipelineLines = "    soft_deletes: true\n";
        once();
        assertThat(destination.rows(false)).hasSize(3000).isEqualTo(rows(source, "items"));
        assertThat(destination.rows(true)).isEmpty();

        change(1);
        once();
        // keys the first changes deleted come back: their rows are no longer marked
        changes(
                "INSERT INTO items SELECT i, 'back ' || i, i, 'b' FROM generate_series(1, 3000) i"
                        + " WHERE i % 13 = 1 AND i % 2 = 0 ON CONFLICT DO NOTHING");
        change(2);
        once();

        List<String> live = rows(source, "items");
        List<String> everInserted = new ArrayList<>();
        try (Connection c = source.connect()) {
            for (String row :
                    rowsOf(
                            c,
                            "SELECT i, i FROM (SELECT generate_series(1, 3000) i UNION ALL"
                                    + " SELECT generate_series(10001, 10200) UNION ALL"
                                    + " SELECT generate_series(20001, 20200)) k ORDER BY i")) {
                everInserted.add(row.substring(0, row.indexOf(':')));
            }
        }
        List<String> liveKeys = live.stream().map(r -> r.substring(0, r.indexOf(':'))).toList();
        List<String> deletedKeys =
                everInserted.stream().filter(k -> !liveKeys.contains(k)).toList();
        assertThat(deletedKeys).hasSizeGreaterThan(300); // the deletes happened
        assertThat(liveKeys).contains("14", "66"); // deleted by round 1, inserted again
        assertThat(destination.rows(false)).isEqualTo(live);
        List<String> marked = destination.rows(true);
        assertThat(marked.stream().map(r -> r.substring(0, r.indexOf(':'))).toList())
                .isEqualTo(deletedKeys);
        // a deleted key keeps the values the destination held: only keys inserted and deleted
        // within one run (never in the destination before) hold NULL besides the key
        assertThat(destination.namelessMarked())
                .isEqualTo(
                        deletedKeys.stream()
                                .map(Long::parseLong)
                                .filter(k -> k > 10_000)
                                .filter(
                                        k ->
                                                k > 20_000
                                                        ? k % 13 == 2 || k % 19 == 2
                                                        : k % 13 == 1 || k % 19 == 1)
                                .count());

        // skipprd verify leaves the marked rows out: they stand for the keys the source deleted
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = new HashMap<>(TestPostgres.passwordEnv());
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        int exit =
                Skipprd.run(
                        new String[] {
                            "verify",
                            "--config",
                            dir.resolve("skippr.yml").toString(),
                            "--pipeline",
                            "orders"
                        },
                        dir,
                        env,
                        new PrintWriter(out, true),
                        new PrintWriter(err, true));
        assertThat(exit).as("verify: %s%s", out, err).isZero();
        assertThat(out.toString())
                .as(
                        "source rows, destination rows, missing, extra, duplicated, different,"
                                + " not yet synced (nothing changed since the run)")
                .containsPattern("items +" + live.size() + " +" + live.size() + " +0 +0 +0 +0 +0\n")
                .endsWith("All 1 streams of pipeline orders match.\n");
    }

    /** What a soft-deletes test reads of the destination. */
    private interface SoftDeleteRows {
        /** {@code id:md5} of the rows whose deleted mark is {@code deleted}, by id. */
        List<String> rows(boolean deleted) throws Exception;

        /** How many marked rows hold NULL in {@code name}. */
        long namelessMarked() throws Exception;
    }

    @Test
    void softDeletesMarkDeletedKeysInPostgres() throws Exception {
        String table = "\"" + sink.schema + "\".items";
        onceWithSoftDeletes(
                new SoftDeleteRows() {
                    @Override
                    public List<String> rows(boolean deleted) throws Exception {
                        try (Connection c = sink.connect()) {
                            return rowsOf(
                                    c,
                                    "SELECT id, md5(concat_ws('|', id, name, amount, note)) FROM "
                                            + table
                                            + " WHERE "
                                            + (deleted ? "" : "NOT ")
                                            + "_skippr_deleted ORDER BY id");
                        }
                    }

                    @Override
                    public long namelessMarked() throws Exception {
                        try (Connection c = sink.connect()) {
                            return Long.parseLong(
                                    query(
                                                    c,
                                                    "SELECT count(*) FROM "
                                                            + table
                                                            + " WHERE _skippr_deleted AND"
                                                            + " name IS NULL")
                                            .get(0));
                        }
                    }
                });
    }

    @Test
    void softDeletesMarkDeletedKeysInDuckDb() throws Exception {
        Path file = dir.resolve("warehouse.duckdb");
        sinkYaml = "    DuckDB:\n      path: " + file + "\n      schema: raw\n";
        onceWithSoftDeletes(
                new SoftDeleteRows() {
                    @Override
                    public List<String> rows(boolean deleted) throws Exception {
                        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
                            return rowsOf(
                                    c,
                                    "SELECT id, md5(concat_ws('|', id, name, amount, note)) FROM"
                                            + " raw.items WHERE "
                                            + (deleted ? "" : "NOT ")
                                            + "_skippr_deleted ORDER BY id");
                        }
                    }

                    @Override
                    public long namelessMarked() throws Exception {
                        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
                            return Long.parseLong(
                                    query(
                                                    c,
                                                    "SELECT count(*) FROM raw.items WHERE"
                                                            + " _skippr_deleted AND name IS"
                                                            + " NULL")
                                            .get(0));
                        }
                    }
                });
    }

    @Test
    void cdcWithACursorColumnIsRefused() throws Exception {
        assertThatThrownBy(
                        () ->
                                PipelineGraph.build(
                                        TestFlink.env(false),
                                        request(true, "      cursor_column: id\n")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "replication_method cdc reads every change from the replication slot and"
                                + " takes no cursor_column: remove cursor_column, or use"
                                + " replication_method cursor");
    }

    private long confirmed() {
        try {
            return slotLsn("confirmed_flush_lsn");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private long committedLsnOrZero() {
        try {
            return committedLsn();
        } catch (Exception e) {
            return 0;
        }
    }

    /** The slot's confirmed flush LSN is at most the LSN the destination's commits hold. */
    private void assertConfirmedNotPastCommitted() throws Exception {
        assertThat(confirmed()).isLessThanOrEqualTo(committedLsn());
    }

    /** The highest LSN of the positions the sink's marker table holds for the stream. */
    private long committedLsn() throws Exception {
        var positions =
                PipelineGraph.committedPositions(
                        request(false, "").pipeline(),
                        TestPostgres.passwordEnv(),
                        dir.resolve("state"));
        String position = positions.get("items");
        long highest = 0;
        for (String line : position.lines().toList()) {
            if (line.startsWith("cdc " + slot + " ")) {
                highest =
                        Math.max(
                                highest,
                                Long.parseUnsignedLong(
                                        line.substring(line.lastIndexOf(' ') + 1), 16));
            }
        }
        return highest;
    }

    /**
     * The newest complete checkpoint: a job cancelled while a checkpoint was being taken leaves its
     * folder without metadata until Flink discards it, and restoring from that one fails the job.
     */
    private Path latestCheckpoint() {
        return Checkpoints.latest(dir.resolve("checkpoints")).orElseThrow();
    }
}
