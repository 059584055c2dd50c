package io.skippr.sinks.postgres;

import static io.skippr.sinks.postgres.PostgresCommitterITCase.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Operation;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.FailPoint.Stage;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.WriteMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PostgreSQL's prepared path of a bounded append run stopped between each two of its steps, then
 * run again, as a recovery checklist. A stop is a failure injected at a {@link FailPoint} after
 * which every connection of the run is closed, as a killed process's would be (what was prepared
 * stays prepared, nothing else survives). Two writers: subtask 0 reads ids [0, 50), subtask 1 ids
 * [50, 100), the cursor is {@code id}.
 *
 * <p>After each stop, what is visible must agree with itself: the marker rows visible count exactly
 * the rows visible, and the committed position is the highest id visible. After the rerun (which
 * reads from the committed position, as a source would), each source row is in the target once,
 * with all its columns as the source has them (count and checksum), and the position is 99.
 */
class PostgresPreparedCrashITCase {
    private static final long ROWS = 100;

    private TestPg pg;
    private String pipeline;

    @BeforeEach
    void schema() {
        pg = new TestPg();
        // prepared transaction ids are unique in the whole server: a pipeline name of our own
        pipeline = "crash_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    @AfterEach
    void drop() throws Exception {
        for (String gid : prepared()) {
            TestPg.exec("ROLLBACK PREPARED '" + gid + "'");
        }
        pg.close();
    }

    /** Where a run stops. */
    enum Stop {
        /** Subtask 0 prepared; subtask 1 never started. */
        AFTER_THE_FIRST_PREPARE,
        /** Both writers prepared; the commit never started. */
        AFTER_EVERY_PREPARE,
        /** The commit transaction is done, no COMMIT PREPARED ran. */
        BEFORE_THE_FIRST_COMMIT_PREPARED,
        /** Subtask 0's transaction is committed, subtask 1's still prepared. */
        BETWEEN_THE_COMMIT_PREPAREDS,
        /** Both writers' transactions are committed, the rest of the commit not run. */
        AFTER_THE_LAST_COMMIT_PREPARED,
        /** The commit finished; Flink never learned it. */
        AFTER_THE_COMMIT
    }

    private FailPoint writerFails(Stop stop, int subtask) {
        return switch (stop) {
            case AFTER_THE_FIRST_PREPARE ->
                    subtask == 0 ? FailPoint.throwAlways(Stage.AFTER_PREPARE, 1) : FailPoint.NONE;
            case AFTER_EVERY_PREPARE ->
                    subtask == 1 ? FailPoint.throwAlways(Stage.AFTER_PREPARE, 1) : FailPoint.NONE;
            default -> FailPoint.NONE;
        };
    }

    private FailPoint committerFails(Stop stop) {
        return switch (stop) {
            case BEFORE_THE_FIRST_COMMIT_PREPARED ->
                    FailPoint.throwAlways(Stage.BEFORE_COMMIT_PREPARED, 1);
            case BETWEEN_THE_COMMIT_PREPAREDS ->
                    FailPoint.throwAlways(Stage.AFTER_COMMIT_PREPARED, 1);
            case AFTER_THE_LAST_COMMIT_PREPARED ->
                    FailPoint.throwAlways(Stage.AFTER_COMMIT_PREPARED, 2);
            case AFTER_THE_COMMIT -> FailPoint.throwAlways(Stage.AFTER_COMMIT, 1);
            default -> FailPoint.NONE;
        };
    }

    /**
     * One bounded run reading ids above {@code position} (all when null), stopped at {@code stop}
     * (null: not at all); every connection is closed when it returns or throws.
     */
    private void run(SqlSinkSettings settings, Stop stop) throws Exception {
        Long position =
                SqlSinks.committedPositions(settings).containsKey("orders")
                        ? Long.parseLong(SqlSinks.committedPositions(settings).get("orders"))
                        : null;
        List<SqlCommittable> all = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            try (SqlStagingWriter writer =
                    new SqlStagingWriter(
                            settings,
                            subtask,
                            2,
                            OptionalLong.empty(),
                            List.of(),
                            stop == null ? FailPoint.NONE : writerFails(stop, subtask))) {
                writer.write(new SchemaChange(PostgresCommitterITCase.ORDERS), null);
                for (long id = subtask * 50L; id < subtask * 50L + 50; id++) {
                    if (position == null || id > position) {
                        writer.write(row(id, (int) id * 10, Operation.INSERT), null);
                    }
                }
                all.addAll(writer.prepareCommit());
            }
        }
        FailPoint fails = stop == null ? FailPoint.NONE : committerFails(stop);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN, fails)) {
            commit(fails.around(committer), all);
        }
    }

    /** What {@code committer} signalled for each of {@code committables}. */
    private static List<String> commit(
            org.apache.flink.api.connector.sink2.Committer<SqlCommittable> committer,
            List<SqlCommittable> committables)
            throws Exception {
        return io.skippr.sinks.sql.RecordedRequest.commit(committer, committables);
    }

    /** count, distinct _skippr_id, and an MD5 over every column but the load time, by id. */
    private List<String> checksum() throws SQLException {
        return TestPg.one(
                "SELECT count(*), count(DISTINCT _skippr_id), md5(coalesce(string_agg(id || ','"
                        + " || amount || ',' || _skippr_id, ';' ORDER BY id), '')) FROM "
                        + pg.table("orders"));
    }

    /** The checksum of the source's rows, each once. */
    private static List<String> expected() throws Exception {
        List<String> parts = new ArrayList<>();
        for (long id = 0; id < ROWS; id++) {
            String position = "orders#" + id + "#" + (id * 10);
            parts.add(id + "," + (id * 10) + "," + SkipprId.of("orders", position));
        }
        byte[] md5 =
                MessageDigest.getInstance("MD5")
                        .digest(String.join(";", parts).getBytes(StandardCharsets.UTF_8));
        return List.of(String.valueOf(ROWS), String.valueOf(ROWS), HexFormat.of().formatHex(md5));
    }

    /** This test's prepared transactions. */
    private List<String> prepared() throws SQLException {
        return pg.prepared();
    }

    /**
     * What a reader sees right after the stop, before anything finishes the run: the marker rows
     * count exactly the visible rows, and the highest position they hold is the highest visible id.
     */
    private void assertVisibleAgrees(String when) throws SQLException {
        boolean exists =
                TestPg.one(
                                "SELECT to_regclass('"
                                        + pg.table("orders").replace("'", "''")
                                        + "') IS NOT NULL")
                        .get(0)
                        .equals("t");
        List<String> visible =
                exists
                        ? TestPg.one(
                                "SELECT count(*), coalesce(max(id)::text, '') FROM "
                                        + pg.table("orders"))
                        : List.of("0", "");
        List<String> markers =
                TestPg.one(
                        "SELECT coalesce(sum(rows), 0), coalesce(max((positions::json->'orders'"
                                + "->>'value')::bigint)::text, '') FROM "
                                + pg.table("_skippr_commits")
                                + " WHERE pipeline = '"
                                + pipeline
                                + "'");
        assertThat(markers)
                .as(when + ": marker rows and position against the rows visible")
                .isEqualTo(visible);
    }

    private void assertRerunLeavesEachRowOnce(String when) throws Exception {
        SqlSinkSettings rerun = pg.prepare(pipeline, true, WriteMode.APPEND);
        run(rerun, null);
        assertThat(checksum()).as(when + ", then a rerun").isEqualTo(expected());
        assertThat(SqlSinks.committedPositions(pg.prepare(pipeline, true, WriteMode.APPEND)))
                .as(when + ", then a rerun: the position")
                .containsExactly(Map.entry("orders", "99"));
        assertThat(prepared()).as(when + ", then a rerun: nothing left prepared").isEmpty();
        SqlSinkSettings third = pg.prepare(pipeline, true, WriteMode.APPEND);
        run(third, null);
        assertThat(checksum()).as(when + ", then two reruns").isEqualTo(expected());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Stop.class)
    void aRunStoppedBetweenTwoStepsAndRerunLeavesEachRowOnce(Stop stop) throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, true, WriteMode.APPEND);
        assertThatThrownBy(() -> run(settings, stop)).hasMessageContaining("injected failure");

        assertVisibleAgrees("stopped " + stop);
        assertRerunLeavesEachRowOnce("stopped " + stop);
    }

    /**
     * A replay of the run's commit after it stopped (Flink's restarted global committer, same
     * committables) finishes the run and leaves each row once, without a rerun.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            names = {
                "BEFORE_THE_FIRST_COMMIT_PREPARED",
                "BETWEEN_THE_COMMIT_PREPAREDS",
                "AFTER_THE_LAST_COMMIT_PREPARED",
                "AFTER_THE_COMMIT"
            })
    void aCommitReplayedAfterAStopFinishesTheRun(Stop stop) throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, true, WriteMode.APPEND);
        List<SqlCommittable> all = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            try (SqlStagingWriter writer =
                    new SqlStagingWriter(settings, subtask, 2, OptionalLong.empty(), List.of())) {
                PostgresCommitterITCase.write(writer, subtask * 50L, subtask * 50L + 50);
                all.addAll(writer.prepareCommit());
            }
        }
        FailPoint fails = committerFails(stop);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN, fails)) {
            assertThatThrownBy(() -> commit(fails.around(committer), all))
                    .hasMessageContaining("injected failure");
        }
        try (SqlCommitter replay = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(replay, all)).isSubsetOf("committed", "already committed");
        }
        assertThat(checksum()).isEqualTo(expected());
        assertThat(prepared()).isEmpty();
    }

    /** A second stream, read by subtask 0 only: ids [0, 20). */
    private static final io.skippr.core.record.StreamSchema REFUNDS =
            new io.skippr.core.record.StreamSchema(
                    "refunds", PostgresCommitterITCase.ORDERS.columns(), List.of("id"), "id");

    private static io.skippr.core.record.Row refund(long id) {
        String position = "refunds#" + id + "#" + (id * 10);
        return new io.skippr.core.record.Row(
                "refunds",
                REFUNDS.version(),
                Operation.INSERT,
                new Object[] {id, (int) id * 10},
                position,
                SkipprId.of("refunds", position),
                1_700_000_000_000_000L);
    }

    /** The committed position of {@code stream}, or null. */
    private static Long position(SqlSinkSettings settings, String stream) {
        String p = SqlSinks.committedPositions(settings).get(stream);
        return p == null ? null : Long.parseLong(p);
    }

    /**
     * {@link #run} with stream refunds as well, read by subtask 0 after its orders, each stream
     * from its committed position.
     */
    private void runWithRefunds(SqlSinkSettings settings, Stop stop) throws Exception {
        Long orders = position(settings, "orders");
        Long refunds = position(settings, "refunds");
        List<SqlCommittable> all = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            try (SqlStagingWriter writer =
                    new SqlStagingWriter(
                            settings,
                            subtask,
                            2,
                            OptionalLong.empty(),
                            List.of(),
                            FailPoint.NONE)) {
                writer.write(new SchemaChange(PostgresCommitterITCase.ORDERS), null);
                for (long id = subtask * 50L; id < subtask * 50L + 50; id++) {
                    if (orders == null || id > orders) {
                        writer.write(row(id, (int) id * 10, Operation.INSERT), null);
                    }
                }
                if (subtask == 0) {
                    writer.write(new SchemaChange(REFUNDS), null);
                    for (long id = 0; id < 20; id++) {
                        if (refunds == null || id > refunds) {
                            writer.write(refund(id), null);
                        }
                    }
                }
                all.addAll(writer.prepareCommit());
            }
        }
        FailPoint fails = stop == null ? FailPoint.NONE : committerFails(stop);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN, fails)) {
            commit(fails.around(committer), all);
        }
    }

    /** count, distinct _skippr_id, and an MD5 over id, amount and _skippr_id of refunds. */
    private List<String> refundsChecksum() throws SQLException {
        return TestPg.one(
                "SELECT count(*), count(DISTINCT _skippr_id), md5(coalesce(string_agg(id || ','"
                        + " || amount || ',' || _skippr_id, ';' ORDER BY id), '')) FROM "
                        + pg.table("refunds"));
    }

    private static List<String> refundsExpected() throws Exception {
        List<String> parts = new ArrayList<>();
        for (long id = 0; id < 20; id++) {
            String position = "refunds#" + id + "#" + (id * 10);
            parts.add(id + "," + (id * 10) + "," + SkipprId.of("refunds", position));
        }
        byte[] md5 =
                MessageDigest.getInstance("MD5")
                        .digest(String.join(";", parts).getBytes(StandardCharsets.UTF_8));
        return List.of("20", "20", HexFormat.of().formatHex(md5));
    }

    /**
     * A subtask whose streams were partly staged: subtask 0 loads orders straight into the target
     * in its prepared transaction, with its marker row (positions of orders and refunds), while its
     * refunds rows are staged (their target's id column is numeric, wider than the stream's) and
     * move in the commit's own transaction, committed last. Stopped after subtask 0's COMMIT
     * PREPARED, the marker row says refunds is loaded up to id 19 while no refund is visible: the
     * one state a reader can see in which a marker is ahead of its rows. The run is decided, so the
     * next start commits the commit's own transaction before anything reads a position: the refunds
     * appear, once each, and a rerun from the committed positions adds nothing to either stream
     * (count and checksum).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"BETWEEN_THE_COMMIT_PREPAREDS", "AFTER_THE_LAST_COMMIT_PREPARED"})
    void aPartlyStagedSubtasksRowsFollowItsMarkerAtTheNextStartBeforeAnyPositionIsRead(Stop stop)
            throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, true, WriteMode.APPEND);
        TestPg.exec(
                "CREATE TABLE "
                        + pg.table("refunds")
                        + " (id numeric, amount integer, _skippr_id text,"
                        + " _skippr_synced_at timestamptz)");
        assertThatThrownBy(() -> runWithRefunds(settings, stop))
                .hasMessageContaining("injected failure");

        assertThat(
                        TestPg.one(
                                "SELECT positions::json->'refunds'->>'value' FROM "
                                        + pg.table("_skippr_commits")
                                        + " WHERE pipeline = '"
                                        + pipeline
                                        + "' AND subtask = 0"))
                .as("stopped " + stop + ": subtask 0's marker row, committed")
                .containsExactly("19");
        assertThat(refundsChecksum().get(0)).as("its staged refunds, not yet").isEqualTo("0");
        assertThat(prepared()).as("the commit's own transaction").isNotEmpty();

        SqlSinkSettings next = pg.prepare(pipeline, true, WriteMode.APPEND);
        assertThat(prepared()).as("the next start finished the run").isEmpty();
        assertThat(refundsChecksum()).as("at the next start").isEqualTo(refundsExpected());
        assertThat(next.run()).isEqualTo(settings.run() + 1);

        runWithRefunds(next, null);
        assertThat(checksum()).as("a rerun: orders").isEqualTo(expected());
        assertThat(refundsChecksum()).as("a rerun: refunds").isEqualTo(refundsExpected());
        assertThat(SqlSinks.committedPositions(pg.prepare(pipeline, true, WriteMode.APPEND)))
                .containsEntry("orders", "99")
                .containsEntry("refunds", "19");
    }

    /**
     * A prepared transaction that someone else rolls back while the run commits (a DBA, a second
     * process of the same pipeline): its COMMIT PREPARED finds nothing, the commit fails naming it,
     * and what is visible still agrees with the markers, so a rerun loads each row once.
     */
    @ParameterizedTest(name = "subtask {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1})
    void aPreparedTransactionRolledBackUnderTheCommitFailsItAndARerunRepairs(int subtask)
            throws Exception {
        SqlSinkSettings real = pg.prepare(pipeline, true, WriteMode.APPEND);
        SqlSinkSettings settings =
                new SqlSinkSettings(
                        real.pipeline(),
                        real.sink(),
                        real.schema(),
                        real.run(),
                        real.bounded(),
                        real.mode(),
                        new RollsBackFirst(
                                (PostgresDatabase) real.database(),
                                "_" + real.run() + "_" + subtask));
        String victim = PreparedTransactions.gid(settings, subtask);
        List<SqlCommittable> all = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            try (SqlStagingWriter writer =
                    new SqlStagingWriter(settings, s, 2, OptionalLong.empty(), List.of())) {
                PostgresCommitterITCase.write(writer, s * 50L, s * 50L + 50);
                all.addAll(writer.prepareCommit());
            }
        }
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThatThrownBy(() -> commit(committer, all)).hasMessageContaining(victim);
        }

        assertVisibleAgrees("subtask " + subtask + "'s transaction rolled back");
        assertRerunLeavesEachRowOnce("subtask " + subtask + "'s transaction rolled back");
    }

    /**
     * PostgreSQL, but the prepared transaction whose id ends in {@code victimSuffix} is rolled back
     * (over a connection of its own) just before the sink commits it.
     */
    private record RollsBackFirst(PostgresDatabase real, String victimSuffix)
            implements SqlDatabase {
        @Override
        public boolean finishPrepared(Connection c, String gid, boolean commit)
                throws SQLException {
            if (commit && gid.endsWith(victimSuffix)) {
                TestPg.exec("ROLLBACK PREPARED '" + gid + "'");
            }
            return real.finishPrepared(c, gid, commit);
        }

        @Override
        public SqlDialect dialect() {
            return real.dialect();
        }

        @Override
        public Connection connect() throws IOException {
            return real.connect();
        }

        @Override
        public StagingLoader loader(Connection connection) throws IOException {
            return real.loader(connection);
        }

        @Override
        public StagingLoader loader(Connection connection, SqlSinkSettings settings, int subtask)
                throws IOException {
            return real.loader(connection, settings, subtask);
        }

        @Override
        public boolean isPrepared(Connection connection, String gid) throws SQLException {
            return real.isPrepared(connection, gid);
        }

        @Override
        public String preparedCommitId(SqlSinkSettings settings, long run) {
            return real.preparedCommitId(settings, run);
        }

        @Override
        public void prepare(Connection connection, String gid) throws SQLException {
            real.prepare(connection, gid);
        }

        @Override
        public void lockPrepared(Connection connection, SqlSinkSettings settings, boolean lock)
                throws SQLException {
            real.lockPrepared(connection, settings, lock);
        }

        @Override
        public void finishLeftPrepared(Connection connection, SqlSinkSettings settings)
                throws SQLException {
            real.finishLeftPrepared(connection, settings);
        }

        @Override
        public void checkAccess(Connection connection, String schema) throws IOException {
            real.checkAccess(connection, schema);
        }

        @Override
        public IOException failure(String doing, SQLException e) {
            return real.failure(doing, e);
        }

        @Override
        public boolean retriable(SQLException e) {
            return real.retriable(e);
        }

        @Override
        public String describe() {
            return real.describe();
        }
    }
}
