package io.skippr.sinks.postgres;

import static io.skippr.sinks.postgres.PostgresCommitterITCase.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.FailPoint.Stage;
import io.skippr.sinks.sql.RecordedRequest;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.SqlWriterState;
import io.skippr.sinks.sql.WriteMode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PostgreSQL's prepared path in a continuous append run (DESIGN §6): each (checkpoint, subtask)
 * writes its rows once, inside one prepared transaction that holds its marker row and positions,
 * committed by the committer after the checkpoint completes. Stopped at each crash point, then
 * started again in each way a pipeline can start (resumed from the checkpoint, a continuous start
 * without it, a {@code --once} run), each source row must be in its target once (count and
 * checksum) with the positions at the last row.
 *
 * <p>Checkpoint 1 holds orders ids [0, 50) and refunds ids [0, 20); the rest of orders, ids [50,
 * 100), come after it. With {@code refunds} WIDER, refunds' target exists with a wider id column
 * (numeric), so refunds go through a staging table while orders go straight into their target: the
 * checkpoint that an earlier attempt at this path lost rows of. With WITHOUT_AMOUNT or NARROWER the
 * target needs DDL (a new column, a wider one), so refunds go into an owed staging table that the
 * commit moves after its COMMIT PREPARED, or the next start if it stopped before.
 *
 * <p>The path is on by default; this class also sets its switch for clarity.
 */
class PostgresPreparedContinuousITCase {
    private TestPg pg;
    private String pipeline;

    @org.junit.jupiter.api.BeforeAll
    static void switchOn() {
        System.setProperty(PreparedTransactions.CONTINUOUS_SWITCH, "true");
    }

    @AfterAll
    static void switchOff() {
        System.clearProperty(PreparedTransactions.CONTINUOUS_SWITCH);
    }

    @BeforeEach
    void schema() {
        pg = new TestPg();
        pipeline = "cont_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    @AfterEach
    void drop() throws Exception {
        for (String gid : pg.prepared()) {
            TestPg.exec("ROLLBACK PREPARED '" + gid + "'");
        }
        pg.close();
    }

    /** Refunds' target before the run. */
    enum Refunds {
        /** None: the writer creates it, and its rows go straight into it. */
        NEW,
        /** Its id column is wider (numeric): its rows are staged and moved in the transaction. */
        WIDER,
        /**
         * It lacks column amount: its rows go into an owed staging table, moved after the commit
         * (OwedTables).
         */
        WITHOUT_AMOUNT,
        /** Its id column is narrower (integer): owed as well, the move widens it to bigint. */
        NARROWER
    }

    /** Where checkpoint 1's run stops. */
    enum Stop {
        /** (a) The writer prepared checkpoint 1; the checkpoint never completed. */
        AFTER_PREPARE,
        /** (b) The checkpoint completed; its commit never ran. */
        BEFORE_COMMIT_PREPARED,
        /** The commit stopped after the writer's COMMIT PREPARED, before the rest (staged rows). */
        AFTER_COMMIT_PREPARED,
        /** The commit finished; Flink never learned it. */
        AFTER_COMMIT
    }

    /** How the pipeline starts again. */
    enum Start {
        /** Restored from checkpoint 1 (only when it completed). */
        RESUMED,
        /** A continuous run without a checkpoint: from the committed positions. */
        FRESH,
        /** A {@code --once} run: from the committed positions. */
        ONCE
    }

    static List<org.junit.jupiter.params.provider.Arguments> crashes() {
        List<org.junit.jupiter.params.provider.Arguments> out = new ArrayList<>();
        for (Refunds refunds : Refunds.values()) {
            for (Stop stop : Stop.values()) {
                for (Start start : Start.values()) {
                    if (stop == Stop.AFTER_PREPARE && start == Start.RESUMED) {
                        continue; // no checkpoint to resume from
                    }
                    out.add(Arguments.of(refunds, stop, start));
                }
            }
        }
        return out;
    }

    private static final StreamSchema REFUNDS =
            new StreamSchema(
                    "refunds", PostgresCommitterITCase.ORDERS.columns(), List.of("id"), "id");

    private static Row refund(long id) {
        String position = "refunds#" + id + "#" + (id * 10);
        return new Row(
                "refunds",
                REFUNDS.version(),
                Operation.INSERT,
                new Object[] {id, (int) id * 10},
                position,
                SkipprId.of("refunds", position),
                1_700_000_000_000_000L);
    }

    /**
     * Writes orders [from, to) and refunds [from, to), skipping empty ranges, each followed by its
     * read position as a source sends it: one entry, the highest id read.
     */
    private static void write(
            SqlStagingWriter writer, long orders, long ordersTo, long refunds, long refundsTo)
            throws Exception {
        if (orders < ordersTo) {
            writer.write(new SchemaChange(PostgresCommitterITCase.ORDERS), null);
            for (long id = orders; id < ordersTo; id++) {
                writer.write(row(id, (int) id * 10, Operation.INSERT), null);
            }
            writer.write(read("orders", ordersTo - 1), null);
        }
        if (refunds < refundsTo) {
            writer.write(new SchemaChange(REFUNDS), null);
            for (long id = refunds; id < refundsTo; id++) {
                writer.write(refund(id), null);
            }
            writer.write(read("refunds", refundsTo - 1), null);
        }
    }

    /** Refunds with a column added: note. */
    private static final StreamSchema NOTED =
            REFUNDS.withColumns(List.of(Column.of("note", DataType.STRING)));

    /** Writes refunds [from, to) of {@link #NOTED} (note {@code note-<id>}) and their position. */
    private static void writeNoted(SqlStagingWriter writer, long from, long to) throws Exception {
        writer.write(new SchemaChange(NOTED), null);
        for (long id = from; id < to; id++) {
            Row r = refund(id);
            writer.write(
                    new Row(
                            "refunds",
                            NOTED.version(),
                            Operation.INSERT,
                            new Object[] {id, (int) id * 10, "note-" + id},
                            r.position(),
                            r.id(),
                            r.syncedAtMicros()),
                    null);
        }
        writer.write(read("refunds", to - 1), null);
    }

    private static ReadPosition read(String stream, long upTo) {
        return new ReadPosition(stream, ReadPositions.of(List.of(String.format("id:%06d", upTo))));
    }

    /** Where a source reading {@code stream} from the committed positions starts. */
    private long next(String stream) {
        String p =
                SqlSinks.committedPositions(
                                TestPg.database(),
                                pipeline,
                                "warehouse",
                                pg.schema,
                                WriteMode.APPEND)
                        .get(stream);
        if (p == null) {
            return 0;
        }
        return ReadPositions.entries(p).stream()
                        .mapToLong(e -> Long.parseLong(e.substring("id:".length())))
                        .max()
                        .orElse(-1)
                + 1;
    }

    private static List<String> commit(SqlCommitter committer, Collection<SqlCommittable> all)
            throws Exception {
        return RecordedRequest.commit(committer, new ArrayList<>(all));
    }

    private FailPoint committerFails(Stop stop) {
        return switch (stop) {
            case AFTER_COMMIT_PREPARED -> FailPoint.throwAlways(Stage.AFTER_COMMIT_PREPARED, 1);
            case AFTER_COMMIT -> FailPoint.throwAlways(Stage.AFTER_COMMIT, 1);
            default -> FailPoint.NONE;
        };
    }

    @ParameterizedTest(name = "refunds {0}, stopped {1}, started {2}")
    @MethodSource("crashes")
    void aContinuousRunStoppedAtEachPointAndStartedAgainLoadsEachRowOnce(
            Refunds refunds, Stop stop, Start start) throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, false, WriteMode.APPEND);
        String columns =
                switch (refunds) {
                    case NEW -> null;
                    case WIDER -> "id numeric, amount integer";
                    case WITHOUT_AMOUNT -> "id bigint";
                    case NARROWER -> "id integer, amount integer";
                };
        if (columns != null) {
            TestPg.exec(
                    "CREATE TABLE "
                            + pg.table("refunds")
                            + " ("
                            + columns
                            + ", _skippr_id text, _skippr_synced_at timestamptz)");
        }
        Collection<SqlCommittable> held;
        List<SqlWriterState> state;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 50, 0, 20);
            held = writer.prepareCommit();
            state = writer.snapshotState(1);
            write(writer, 50, 60, 0, 0); // after the barrier: lost with the task
        }
        assertThat(held)
                .as("a continuous append writes its rows once, in a prepared transaction")
                .anyMatch(c -> c.kind() == SqlCommittable.Kind.PREPARED);
        if (stop == Stop.AFTER_COMMIT_PREPARED || stop == Stop.AFTER_COMMIT) {
            FailPoint fails = committerFails(stop);
            try (SqlCommitter committer =
                    new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT, fails)) {
                assertThatThrownBy(() -> RecordedRequest.commit(fails.around(committer), held))
                        .hasMessageContaining("injected failure");
            }
        }
        assertVisibleAgrees("stopped " + stop);

        switch (start) {
            case RESUMED -> {
                SqlSinkSettings resumed = pg.prepare(pipeline, false, WriteMode.APPEND);
                Collection<SqlCommittable> second;
                try (SqlStagingWriter writer =
                        new SqlStagingWriter(resumed, 0, 1, OptionalLong.of(1), state)) {
                    try (SqlCommitter committer =
                            new SqlCommitter(resumed, SqlCommitter.Scope.CHECKPOINT)) {
                        assertThat(commit(committer, held))
                                .isSubsetOf("committed", "already committed");
                    }
                    write(writer, 50, 100, 0, 0);
                    second = writer.prepareCommit();
                }
                try (SqlCommitter committer =
                        new SqlCommitter(resumed, SqlCommitter.Scope.CHECKPOINT)) {
                    assertThat(commit(committer, second)).containsOnly("committed");
                }
            }
            case FRESH -> loadFromPositions(false, 100, 20);
            case ONCE -> loadFromPositions(true, 100, 20);
        }
        String when = "stopped " + stop + ", started " + start;
        assertThat(checksum("orders", 100))
                .as(when + ": orders")
                .isEqualTo(expected("orders", 100));
        assertThat(checksum("refunds", 20))
                .as(when + ": refunds")
                .isEqualTo(expected("refunds", 20));
        assertThat(List.of(next("orders"), next("refunds")))
                .as(when + ": where the next run starts")
                .containsExactly(100L, 20L);
        assertThat(pg.prepared()).as(when + ": nothing left prepared").isEmpty();
        assertThat(pg.staging()).as(when + ": no staging left").isEmpty();
        if (refunds == Refunds.WITHOUT_AMOUNT || refunds == Refunds.NARROWER) {
            assertThat(
                            TestPg.rows(
                                    "SELECT column_name, data_type FROM"
                                            + " information_schema.columns WHERE table_schema = '"
                                            + pg.schema
                                            + "' AND table_name = 'refunds'"
                                            + " AND column_name IN ('id', 'amount')"
                                            + " ORDER BY column_name"))
                    .as(when + ": refunds' target evolved")
                    .extracting(r -> r.get(0) + " " + r.get(1))
                    .containsExactly("amount integer", "id bigint");
        }
    }

    /**
     * Two pipelines loading one target: pipeline a's new column waits, owed, for pipeline b's
     * prepared transaction on the target; b's next checkpoint then sends its rows of that target to
     * an owed table too (instead of taking the target's lock again), and a's next start moves a's
     * rows. Each row once.
     */
    @Test
    void anotherPipelinesOwedRowsOfATargetKeepThisPipelineOffItsLock() throws Exception {
        String other = pipeline + "_b";
        SqlSinkSettings a = pg.prepare(pipeline, false, WriteMode.APPEND);
        SqlSinkSettings b = pg.prepare(other, false, WriteMode.APPEND);
        try (SqlStagingWriter bWriter =
                        new SqlStagingWriter(b, 0, 1, OptionalLong.empty(), List.of());
                SqlCommitter bCommitter = new SqlCommitter(b, SqlCommitter.Scope.CHECKPOINT)) {
            write(bWriter, 0, 0, 0, 10);
            Collection<SqlCommittable> bFirst = bWriter.prepareCommit();
            try (SqlStagingWriter aWriter =
                            new SqlStagingWriter(a, 0, 1, OptionalLong.empty(), List.of());
                    SqlCommitter aCommitter = new SqlCommitter(a, SqlCommitter.Scope.CHECKPOINT)) {
                writeNoted(aWriter, 100, 110);
                assertThat(commit(aCommitter, aWriter.prepareCommit())).containsOnly("committed");
            }
            assertThat(pg.staging()).as("a's rows, owed while b holds refunds").hasSize(1);
            assertThat(commit(bCommitter, bFirst)).containsOnly("committed");
            write(bWriter, 0, 0, 10, 20);
            Collection<SqlCommittable> bSecond = bWriter.prepareCommit();
            assertThat(pg.staging()).as("b's rows owed too while a's wait").hasSize(2);
            assertThat(commit(bCommitter, bSecond)).containsOnly("committed");
        }
        assertThat(pg.staging()).as("b's moved, a's wait for a").hasSize(1);
        try (SqlStagingWriter aAgain =
                new SqlStagingWriter(a, 0, 1, OptionalLong.empty(), List.of())) {
            assertThat(pg.staging()).as("a's start moved a's").isEmpty();
        }
        assertThat(
                        TestPg.one(
                                "SELECT count(*), count(DISTINCT _skippr_id), count(note),"
                                        + " sum(id), sum(amount) FROM "
                                        + pg.table("refunds")))
                .containsExactly("30", "30", "10", String.valueOf(190 + 1045), "12350");
        assertThat(pg.prepared()).isEmpty();
    }

    /**
     * One writer whose refunds need a new column: checkpoint 1's rows are owed and moved after its
     * commit; checkpoint 2's are owed too (checkpoint 1 might not have committed when they began);
     * from checkpoint 3 they go straight into the target again, no staging table at the barrier. (A
     * first version kept a target owed for ever once it was.)
     */
    @Test
    void aTargetReturnsToDirectLoadsOnceItsOwedRowsMoved() throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, false, WriteMode.APPEND);
        TestPg.exec(
                "CREATE TABLE "
                        + pg.table("refunds")
                        + " (id bigint, _skippr_id text, _skippr_synced_at timestamptz)");
        List<Integer> staged = new ArrayList<>();
        try (SqlStagingWriter writer =
                        new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of());
                SqlCommitter committer =
                        new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            for (long from = 0; from < 20; from += 5) {
                write(writer, 0, 0, from, from + 5);
                Collection<SqlCommittable> held = writer.prepareCommit();
                staged.add(pg.staging().size());
                assertThat(commit(committer, held)).containsOnly("committed");
                assertThat(pg.staging()).as("moved after the commit").isEmpty();
            }
        }
        assertThat(staged).as("owed tables at each barrier").containsExactly(1, 1, 0, 0);
        assertThat(checksum("refunds", 20)).isEqualTo(expected("refunds", 20));
        assertVisibleAgrees("four checkpoints");
    }

    /**
     * Two subtasks in one checkpoint: subtask 0 loads refunds straight into their target and
     * prepares; subtask 1 brings a schema with a new column, whose rows the target cannot take
     * without an ALTER, which would wait for subtask 0's prepared transaction. Subtask 1's rows go
     * into an owed staging table instead: its commit never waits on the lock (the move is left for
     * later: the rows are counted by its marker row, not yet visible), and the commit of subtask 0
     * moves them. Before owed tables, subtask 1's writer waited for the ALTER until lock_timeout
     * (60 s) failed it.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNewColumnWhileAnotherSubtaskHoldsItsTargetIsMovedAfterBothCommitsWithoutWaiting()
            throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, false, WriteMode.APPEND);
        Collection<SqlCommittable> zero;
        Collection<SqlCommittable> one;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 2, OptionalLong.empty(), List.of())) {
            write(writer, 0, 0, 0, 10);
            zero = writer.prepareCommit();
        }
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 1, 2, OptionalLong.empty(), List.of())) {
            writeNoted(writer, 10, 20);
            one = writer.prepareCommit();
        }
        assertThat(pg.prepared()).as("both subtasks'").hasSize(2);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, one)).containsOnly("committed");
        }
        assertThat(pg.staging()).as("subtask 1's rows, owed while subtask 0 holds").hasSize(1);
        assertVisibleAgrees("subtask 1 committed, subtask 0 prepared");
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, zero)).containsOnly("committed");
        }
        assertThat(checksum("refunds", 20)).isEqualTo(expected("refunds", 20));
        assertThat(TestPg.one("SELECT count(note), min(note) FROM " + pg.table("refunds")))
                .containsExactly("10", "note-10");
        assertThat(pg.staging()).as("moved").isEmpty();
        assertThat(pg.prepared()).isEmpty();
        assertVisibleAgrees("both committed");
    }

    /**
     * (d) A restore from an older checkpoint than the last one that completed: checkpoint 2 was
     * prepared and completed but never committed; the job restores from checkpoint 1, so the source
     * reads checkpoint 2's rows again and checkpoint 2's prepared transaction must never commit.
     */
    @Test
    void aRestoreFromAnOlderCheckpointRollsBackTheNewerPreparedOne() throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, false, WriteMode.APPEND);
        Collection<SqlCommittable> first;
        List<SqlWriterState> state;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 30, 0, 20);
            first = writer.prepareCommit();
            state = writer.snapshotState(1);
            write(writer, 30, 60, 0, 0);
            assertThat(writer.prepareCommit()) // checkpoint 2, completed, never committed
                    .anyMatch(c -> c.kind() == SqlCommittable.Kind.PREPARED);
            writer.snapshotState(2);
        }
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, first)).containsOnly("committed");
        }
        assertThat(pg.prepared()).as("checkpoint 2's").hasSize(1);
        SqlSinkSettings resumed = pg.prepare(pipeline, false, WriteMode.APPEND);
        Collection<SqlCommittable> rest;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(resumed, 0, 1, OptionalLong.of(1), state)) {
            assertThat(pg.prepared()).as("checkpoint 2's, rolled back").isEmpty();
            write(writer, 30, 100, 0, 0);
            rest = writer.prepareCommit();
        }
        try (SqlCommitter committer = new SqlCommitter(resumed, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, rest)).containsOnly("committed");
        }
        assertThat(checksum("orders", 100)).isEqualTo(expected("orders", 100));
        assertThat(checksum("refunds", 20)).isEqualTo(expected("refunds", 20));
    }

    /**
     * (e) Two pipelines in one schema, each with a checkpoint prepared and completed: a fresh start
     * of one rolls back only its own; the other's commits when it resumes.
     */
    @Test
    void aStartOfOnePipelineLeavesAnotherPipelinesPreparedCheckpoint() throws Exception {
        String other = pipeline + "_b";
        SqlSinkSettings a = pg.prepare(pipeline, false, WriteMode.APPEND);
        SqlSinkSettings b = pg.prepare(other, false, WriteMode.APPEND);
        try (SqlStagingWriter writer =
                new SqlStagingWriter(a, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 10, 0, 0);
            writer.prepareCommit();
        }
        Collection<SqlCommittable> bHeld;
        List<SqlWriterState> bState;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(b, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 0, 0, 20);
            bHeld = writer.prepareCommit();
            bState = writer.snapshotState(1);
        }
        assertThat(pg.prepared()).hasSize(2);
        SqlSinkSettings aAgain = pg.prepare(pipeline, false, WriteMode.APPEND);
        try (SqlStagingWriter writer =
                new SqlStagingWriter(aAgain, 0, 1, OptionalLong.empty(), List.of())) {
            assertThat(pg.prepared()).as("b's is still prepared").hasSize(1);
        }
        SqlSinkSettings bAgain = pg.prepare(other, false, WriteMode.APPEND);
        try (SqlStagingWriter writer =
                        new SqlStagingWriter(bAgain, 0, 1, OptionalLong.of(1), bState);
                SqlCommitter committer = new SqlCommitter(bAgain, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, bHeld)).containsOnly("committed");
        }
        assertThat(checksum("refunds", 20)).isEqualTo(expected("refunds", 20));
        assertThat(pg.prepared()).isEmpty();
    }

    /**
     * A checkpoint whose writer prepared rows of orders and also saw a new schema of orders (a
     * column added) without rows of it: the committer evolves the target after the COMMIT PREPARED.
     * Before it, the ALTER waited for the prepared transaction's lock on orders, which only that
     * commit releases, and the commit hung (found so: the ALTER waited on the prepared transaction
     * in pg_stat_activity; the timeout, in a thread of its own, fails it).
     */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNewSchemaWithoutRowsIsAppliedAfterTheCheckpointsRows() throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, false, WriteMode.APPEND);
        StreamSchema wider =
                new StreamSchema(
                        "orders",
                        List.of(
                                Column.of("id", DataType.INT64),
                                Column.of("amount", DataType.INT32),
                                Column.of("note", DataType.STRING)),
                        List.of("id"),
                        "id");
        Collection<SqlCommittable> held;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 10, 0, 0);
            writer.write(new SchemaChange(wider), null);
            held = writer.prepareCommit();
        }
        assertThat(held)
                .anyMatch(c -> c.kind() == SqlCommittable.Kind.PREPARED)
                .anyMatch(c -> c.kind() == SqlCommittable.Kind.SCHEMA);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, held)).containsOnly("committed");
        }
        try (SqlCommitter replay = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(replay, held)).containsOnly("already committed");
        }
        assertThat(checksum("orders", 10)).isEqualTo(expected("orders", 10));
        assertThat(
                        TestPg.one(
                                "SELECT count(*) FROM information_schema.columns WHERE"
                                        + " table_schema = '"
                                        + pg.schema
                                        + "' AND table_name = 'orders' AND column_name = 'note'"))
                .containsExactly("1");
        assertThat(pg.prepared()).isEmpty();
    }

    /**
     * (g) {@code --once}, then continuous, then {@code --once} on one pipeline and destination,
     * each on its prepared path, each starting from the positions the one before committed: each
     * row once.
     */
    @Test
    void onceThenContinuousThenOnceLoadsEachRowOnce() throws Exception {
        assertThat(loadFromPositions(true, 30, 10))
                .anyMatch(c -> c.kind() == SqlCommittable.Kind.PREPARED);
        assertThat(loadFromPositions(false, 60, 15))
                .anyMatch(c -> c.kind() == SqlCommittable.Kind.PREPARED);
        loadFromPositions(true, 100, 20);
        assertThat(checksum("orders", 100)).isEqualTo(expected("orders", 100));
        assertThat(checksum("refunds", 20)).isEqualTo(expected("refunds", 20));
        assertThat(List.of(next("orders"), next("refunds"))).containsExactly(100L, 20L);
        assertThat(pg.prepared()).isEmpty();
    }

    /**
     * A fresh start of the pipeline (a {@code --once} run if {@code bounded}, else a continuous run
     * without a checkpoint) with one writer that reads from the committed positions up to orders id
     * {@code ordersTo} and refunds id {@code refundsTo} (exclusive), then commits: its
     * committables.
     */
    private Collection<SqlCommittable> loadFromPositions(
            boolean bounded, long ordersTo, long refundsTo) throws Exception {
        SqlSinkSettings settings = pg.prepare(pipeline, bounded, WriteMode.APPEND);
        Collection<SqlCommittable> all;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, next("orders"), ordersTo, next("refunds"), refundsTo);
            all = writer.prepareCommit();
        }
        SqlCommitter.Scope scope = bounded ? SqlCommitter.Scope.RUN : SqlCommitter.Scope.CHECKPOINT;
        try (SqlCommitter committer = new SqlCommitter(settings, scope)) {
            assertThat(commit(committer, all)).containsOnly("committed");
        }
        return all;
    }

    /**
     * What is visible agrees with itself: the marker rows count the visible rows of orders and
     * refunds, plus those of owed staging tables (committed, moved after the commit); the loads
     * ({@code _skippr_loads}, inserted with the marker rows) count them too, and their checksums
     * add up to the sum of the visible rows' id hashes.
     */
    private void assertVisibleAgrees(String when) throws SQLException {
        long visible = 0;
        BigInteger ids = BigInteger.ZERO;
        List<String> tables = new ArrayList<>();
        for (String table : List.of("orders", "refunds")) {
            if (pg.exists(table)) {
                tables.add(table);
            }
        }
        for (List<String> owed :
                TestPg.rows(
                        "SELECT tablename FROM pg_tables WHERE schemaname = '"
                                + pg.schema
                                + "' AND obj_description(format('%I.%I', schemaname,"
                                + " tablename)::regclass, 'pg_class') LIKE '%\"owed\"%'")) {
            // committed rows whose target needed DDL: moved into it after the commit
            tables.add(owed.get(0));
        }
        for (String table : tables) {
            List<String> row =
                    TestPg.one(
                            "SELECT count(*), coalesce(sum(('x' || substr(_skippr_id, 1,"
                                    + " 15))::bit(60)::bigint), 0) FROM "
                                    + pg.table(table));
            visible += Long.parseLong(row.get(0));
            ids = ids.add(new BigInteger(row.get(1)));
        }
        String marked =
                TestPg.one(
                                "SELECT coalesce(sum(rows), 0) FROM "
                                        + pg.table("_skippr_commits")
                                        + " WHERE pipeline = '"
                                        + pipeline
                                        + "'")
                        .get(0);
        assertThat(Long.parseLong(marked))
                .as(when + ": marker rows against visible rows")
                .isEqualTo(visible);
        List<String> loads =
                TestPg.one(
                        "SELECT coalesce(sum(rows), 0), coalesce(sum(checksum), 0) FROM "
                                + pg.table("_skippr_loads")
                                + " WHERE pipeline = '"
                                + pipeline
                                + "'");
        assertThat(Long.parseLong(loads.get(0)))
                .as(when + ": loads' rows against visible rows")
                .isEqualTo(visible);
        assertThat(new BigInteger(loads.get(1)).longValue())
                .as(when + ": loads' checksums against the visible rows' ids")
                .isEqualTo(ids.longValue());
    }

    private List<String> checksum(String table, long rows) throws SQLException {
        return TestPg.one(
                "SELECT count(*), count(DISTINCT _skippr_id), md5(coalesce(string_agg(id || ','"
                        + " || amount || ',' || _skippr_id, ';' ORDER BY id), '')) FROM "
                        + pg.table(table));
    }

    private static List<String> expected(String stream, long rows) throws Exception {
        List<String> parts = new ArrayList<>();
        for (long id = 0; id < rows; id++) {
            String position = stream + "#" + id + "#" + (id * 10);
            parts.add(id + "," + (id * 10) + "," + SkipprId.of(stream, position));
        }
        byte[] md5 =
                MessageDigest.getInstance("MD5")
                        .digest(String.join(";", parts).getBytes(StandardCharsets.UTF_8));
        return List.of(String.valueOf(rows), String.valueOf(rows), HexFormat.of().formatHex(md5));
    }
}
