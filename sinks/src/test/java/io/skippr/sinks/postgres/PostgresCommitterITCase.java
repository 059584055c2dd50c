package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.RecordedRequest;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommittableSerializer;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.SqlWriterState;
import io.skippr.sinks.sql.TargetTables;
import io.skippr.sinks.sql.WriteMode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The commit protocol step by step, without Flink: the writer's staging and the committer called
 * directly, as a recovery checklist (DESIGN §6). Its continuous runs stage: the prepared path of
 * continuous append runs, on by default, is switched off here (PostgresPreparedContinuousITCase
 * covers it).
 */
class PostgresCommitterITCase {
    static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(Column.of("id", DataType.INT64), Column.of("amount", DataType.INT32)),
                    List.of("id"),
                    "id");

    private TestPg pg;

    @BeforeAll
    static void stage() {
        System.setProperty(PreparedTransactions.CONTINUOUS_SWITCH, "false");
    }

    @AfterAll
    static void restoreDefault() {
        System.clearProperty(PreparedTransactions.CONTINUOUS_SWITCH);
    }

    @BeforeEach
    void schema() {
        pg = new TestPg();
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    static List<String> commit(SqlCommitter committer, Collection<SqlCommittable> committables)
            throws Exception {
        return RecordedRequest.commit(committer, committables);
    }

    static Row row(long id, int amount, Operation op) {
        String position = "orders#" + id + "#" + amount;
        return new Row(
                "orders",
                ORDERS.version(),
                op,
                new Object[] {id, amount},
                position,
                SkipprId.of("orders", position),
                1_700_000_000_000_000L);
    }

    static void write(SqlStagingWriter writer, long from, long to) throws Exception {
        writer.write(new SchemaChange(ORDERS), null);
        for (long id = from; id < to; id++) {
            writer.write(row(id, (int) id * 10, Operation.INSERT), null);
        }
    }

    private String count() throws Exception {
        return TestPg.one("SELECT count(*) FROM " + pg.table("orders")).get(0);
    }

    @Test
    void aReplayedCheckpointCommitIsANoOp() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.APPEND);
        Collection<SqlCommittable> committables;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 10);
            committables = writer.prepareCommit();
        }
        assertThat(pg.staging()).hasSize(1);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, committables)).containsExactly("committed");
            assertThat(commit(committer, committables)).containsExactly("already committed");
        }
        assertThat(count()).isEqualTo("10");
        assertThat(pg.staging()).isEmpty();
    }

    @Test
    void aReplayedBoundedRunCommitIsANoOp() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            try (SqlStagingWriter writer =
                    new SqlStagingWriter(settings, subtask, 2, OptionalLong.empty(), List.of())) {
                write(writer, subtask * 100, subtask * 100 + 50);
                all.addAll(writer.prepareCommit());
            }
        }
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(committer, all)).containsExactly("committed");
            assertThat(commit(committer, all)).containsExactly("already committed");
        }
        assertThat(count()).isEqualTo("100");
        assertThat(
                        TestPg.one(
                                "SELECT count(*), sum(rows), string_agg(positions, ' ' ORDER BY"
                                        + " subtask) FROM "
                                        + pg.table("_skippr_commits")))
                .containsExactly(
                        "2",
                        "100",
                        "{\"orders\":{\"type\":\"INT64\",\"value\":\"49\"}}"
                                + " {\"orders\":{\"type\":\"INT64\",\"value\":\"149\"}}");
    }

    @Test
    void aBoundedRunMissingASubtaskIsNotCommittedAtAll() throws Exception {
        try (AutoCloseable staging = TestPg.stagingOnly()) {
            SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
            Collection<SqlCommittable> first;
            try (SqlStagingWriter writer =
                    new SqlStagingWriter(settings, 0, 2, OptionalLong.empty(), List.of())) {
                write(writer, 0, 10);
                first = writer.prepareCommit();
            }
            try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
                assertThatThrownBy(() -> commit(committer, first))
                        .hasMessageContaining("refusing to commit part of a run");
            }
            assertThat(pg.exists("orders")).isFalse();
        }
    }

    @Test
    void aBoundedRunMissingASubtaskRollsBackWhatItsWritersPrepared() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
        Collection<SqlCommittable> first;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 2, OptionalLong.empty(), List.of())) {
            write(writer, 0, 10);
            first = writer.prepareCommit();
        }
        assertThat(pg.prepared()).hasSize(1);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThatThrownBy(() -> commit(committer, first))
                    .hasMessageContaining("refusing to commit part of a run");
        }
        assertThat(pg.prepared()).as("no lock is left held").isEmpty();
        assertThat(count()).as("the target, created before its rows, holds none").isEqualTo("0");
    }

    @Test
    void aRestoredWriterDropsTheStagingNoCheckpointHoldsAndKeepsTheHeldOne() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.APPEND);
        Collection<SqlCommittable> held;
        List<SqlWriterState> state;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 10);
            held = writer.prepareCommit(); // pre-committed for checkpoint 1
            state = writer.snapshotState(1);
            write(writer, 10, 20); // after the checkpoint: then the task fails
            writer.prepareCommit(); // staged, but checkpoint 2 never completes
        }
        assertThat(pg.staging()).hasSize(2);

        try (SqlStagingWriter restored =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.of(1), state)) {
            assertThat(pg.staging()).containsExactly(held.iterator().next().staging());
        }
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, held)).containsExactly("committed");
        }
        assertThat(count()).isEqualTo("10");
    }

    @Test
    void aFreshWriterDropsItsSubtasksStagingFromEarlierRuns() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.APPEND);
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 1, 2, OptionalLong.empty(), List.of())) {
            write(writer, 0, 10);
            writer.prepareCommit();
        }
        try (SqlStagingWriter other =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            assertThat(pg.staging())
                    .as("subtask 0 also drops subtasks the run no longer has")
                    .isEmpty();
        }
    }

    static final StreamSchema ITEMS =
            new StreamSchema(
                    "items",
                    List.of(Column.of("id", DataType.INT64), Column.of("version", DataType.INT64)),
                    List.of("id"),
                    "version");

    static Row item(long id, long version, Operation op) {
        return item(id, Long.valueOf(version), op);
    }

    /** A version of row {@code id}; a null version has no cursor value. */
    static Row item(long id, Long version, Operation op) {
        String position = "items|id=" + id + "|cursor=" + version;
        return new Row(
                "items",
                ITEMS.version(),
                op,
                new Object[] {id, version},
                position,
                SkipprId.of("items", position),
                1_700_000_000_000_000L);
    }

    static Collection<SqlCommittable> staged(SqlSinkSettings settings, int subtask, Row... rows)
            throws Exception {
        return staged(settings, subtask, ITEMS, rows);
    }

    /**
     * The committables of subtask {@code subtask} of one checkpoint: {@code rows} of {@code
     * schema}.
     */
    static Collection<SqlCommittable> staged(
            SqlSinkSettings settings, int subtask, StreamSchema schema, Row... rows)
            throws Exception {
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, subtask, 2, OptionalLong.empty(), List.of())) {
            writer.write(new SchemaChange(schema), null);
            for (Row row : rows) {
                writer.write(row, null);
            }
            return writer.prepareCommit();
        }
    }

    /**
     * Found by bench/chaos: in a continuous run each writer subtask commits on its own, and the
     * polling source may hand a newer window of rows to another subtask, so a commit holding an
     * older version of a row can land after the one holding the newer version.
     */
    @Test
    void aMergeCommitArrivingAfterANewerOneLeavesTheNewerRowsAlone() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.MERGE);
        Collection<SqlCommittable> older =
                staged(
                        settings,
                        0,
                        item(1, 1, Operation.INSERT),
                        item(2, 1, Operation.INSERT),
                        item(3, 1, Operation.DELETE));
        Collection<SqlCommittable> newer =
                staged(settings, 1, item(1, 2, Operation.UPDATE), item(3, 2, Operation.INSERT));
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, newer)).containsExactly("committed");
            assertThat(commit(committer, older)).containsExactly("committed");
        }
        assertThat(
                        TestPg.one(
                                "SELECT string_agg(id || ':' || version, ',' ORDER BY id) FROM "
                                        + pg.table("items")))
                .as("key 1 keeps version 2, key 2 arrives, key 3 is not deleted by version 1")
                .containsExactly("1:2,2:1,3:2");
    }

    static final StreamSchema CHANGES =
            new StreamSchema(
                    "changes",
                    List.of(
                            Column.of("id", DataType.INT64),
                            Column.of("version", DataType.INT64),
                            new Column("name", DataType.STRING, true),
                            Column.of("_skippr_deleted", DataType.BOOLEAN)),
                    List.of("id"),
                    "version");

    /** A change of row {@code id} as change data capture gives it: a delete carries the key. */
    static Row change(long id, long version, String name, Operation op) {
        String position = "changes|id=" + id + "|cursor=" + version;
        boolean delete = op == Operation.DELETE;
        return new Row(
                "changes",
                CHANGES.version(),
                op,
                new Object[] {id, version, delete ? null : name, delete},
                position,
                SkipprId.of("changes", position),
                1_700_000_000_000_000L);
    }

    /**
     * soft_deletes: a delete marks the key's row and keeps its values, a delete of a key the table
     * lacks adds the key marked, an insert after a delete unmarks it, and an older change committed
     * after the delete (another subtask's) does not undo it.
     */
    @Test
    void aSoftDeleteMarksTheRowAndAnOlderChangeCommittedLaterLeavesItMarked() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.MERGE).withSoftDeletes(true);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT);
                SqlStagingWriter subtask0 =
                        new SqlStagingWriter(settings, 0, 2, OptionalLong.empty(), List.of())) {
            subtask0.write(new SchemaChange(CHANGES), null);
            subtask0.write(change(1, 1, "a", Operation.INSERT), null);
            subtask0.write(change(2, 1, "b", Operation.INSERT), null);
            subtask0.write(change(3, 1, "c", Operation.INSERT), null);
            assertThat(commit(committer, subtask0.prepareCommit())).containsExactly("committed");
            Collection<SqlCommittable> deletes =
                    staged(
                            settings,
                            1,
                            CHANGES,
                            change(1, 3, null, Operation.DELETE),
                            change(4, 3, null, Operation.DELETE),
                            change(2, 2, null, Operation.DELETE),
                            change(2, 3, "b3", Operation.INSERT));
            assertThat(commit(committer, deletes)).containsExactly("committed");
            subtask0.write(change(1, 2, "a2", Operation.UPDATE), null);
            assertThat(commit(committer, subtask0.prepareCommit())).containsExactly("committed");
        }
        assertThat(
                        TestPg.one(
                                "SELECT string_agg(concat_ws(':', id, version, coalesce(name,"
                                        + " '-'), _skippr_deleted::text), ',' ORDER BY id) FROM "
                                        + pg.table("changes")))
                .containsExactly("1:3:a:true,2:3:b3:false,3:1:c:false,4:3:-:true");
    }

    /**
     * Staging written by an earlier build (committable version 2) calls the delete flag
     * _skippr_deleted: a run restored from its checkpoint merges it, deletes applied, and a change
     * data capture column of that name staged now keeps its name in the target.
     */
    @Test
    void aMergeReadsTheDeleteFlagOfStagingAnEarlierBuildWrote() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.MERGE);
        SqlCommittableSerializer serializer = new SqlCommittableSerializer();
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            commit(
                    committer,
                    staged(
                            settings,
                            0,
                            item(1, 1, Operation.INSERT),
                            item(2, 1, Operation.INSERT),
                            item(3, 1, Operation.INSERT)));
            List<SqlCommittable> earlier = new ArrayList<>();
            for (SqlCommittable c :
                    staged(
                            settings,
                            1,
                            item(1, 2, Operation.DELETE),
                            item(3, 2, Operation.UPDATE))) {
                if (c.kind() == SqlCommittable.Kind.ROWS) {
                    TestPg.exec(
                            "ALTER TABLE "
                                    + pg.table(c.staging())
                                    + " RENAME COLUMN _skippr_delete_row TO _skippr_deleted");
                }
                earlier.add(serializer.deserialize(2, serializer.serialize(c)));
            }
            assertThat(commit(committer, earlier)).containsExactly("committed");
        }
        assertThat(
                        TestPg.one(
                                "SELECT string_agg(id || ':' || version, ',' ORDER BY id) FROM "
                                        + pg.table("items")))
                .as("key 1 deleted by the earlier build's staged delete, key 3 updated")
                .containsExactly("2:1,3:2");
        assertThat(
                        TestPg.one(
                                "SELECT string_agg(column_name, ',' ORDER BY column_name) FROM"
                                        + " information_schema.columns WHERE table_schema = '"
                                        + pg.schema
                                        + "' AND table_name = 'items' AND column_name LIKE"
                                        + " '\\_skippr%'"))
                .as("no staging column reaches the target")
                .containsExactly("_skippr_id,_skippr_synced_at");
    }

    @Test
    void aMergedRowWithoutCursorValueAlwaysApplies() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.MERGE);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            commit(committer, staged(settings, 0, item(1, 5L, Operation.INSERT)));
            commit(committer, staged(settings, 1, item(1, null, Operation.UPDATE)));
        }
        assertThat(TestPg.one("SELECT count(*) || ':' || count(version) FROM " + pg.table("items")))
                .as("key 1 now holds the version without a cursor value")
                .containsExactly("1:0");
    }

    @Test
    void aMergeOfAStreamWithoutKeyFailsAtItsFirstSchema() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.MERGE);
        StreamSchema keyless =
                new StreamSchema("logs", List.of(Column.of("line", DataType.STRING)), List.of());
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            assertThatThrownBy(() -> writer.write(new SchemaChange(keyless), null))
                    .isInstanceOf(SqlSinkException.class)
                    .hasMessage(
                            "write_mode merge upserts on the source's primary key, and stream"
                                    + " logs has none: give the source table a primary key, or"
                                    + " use write_mode append or replace for pipeline p");
        }
    }

    @Test
    void aTypeChangeTheTargetCannotTakeFailsBeforeAnyRowIsStaged() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.APPEND);
        TestPg.exec("CREATE TABLE " + pg.table("orders") + " (id bigint, amount boolean)");
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            assertThatThrownBy(() -> writer.write(new SchemaChange(ORDERS), null))
                    .isInstanceOf(TargetTables.SchemaConflictException.class)
                    .hasMessageStartingWith(
                            "Cannot load stream orders into "
                                    + pg.table("orders")
                                    + ": column \"amount\" is boolean there, and the stream now"
                                    + " sends INT32 values");
        }
        assertThat(pg.staging()).isEmpty();
    }

    @Test
    void aCommitWhoseStagingTableVanishedFailsInsteadOfLosingRowsSilently() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", false, WriteMode.APPEND);
        Collection<SqlCommittable> committables;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            write(writer, 0, 10);
            committables = writer.prepareCommit();
        }
        TestPg.exec("DROP TABLE " + pg.table(pg.staging().get(0)));
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThatThrownBy(() -> commit(committer, committables))
                    .hasMessageContaining("is gone, and")
                    .hasMessageContaining("records no commit of it");
        }
    }

    /**
     * A destination that stores a table under another name than Skippr created it with (the fake
     * Snowflake cut names at 63 bytes) lists no columns for it afterwards: the commit fails there,
     * naming the table, instead of a NullPointerException further on.
     */
    @Test
    void aTableTheCatalogDoesNotListAfterItsCreateFailsNamingIt() throws Exception {
        SqlSinkSettings real = pg.prepare("p", false, WriteMode.APPEND);
        SqlDialect dialect = real.dialect();
        SqlDialect blind =
                proxy(
                        SqlDialect.class,
                        dialect,
                        (name, args) -> name.equals("columns") ? Optional.empty() : null);
        SqlDatabase database =
                proxy(
                        SqlDatabase.class,
                        real.database(),
                        (name, args) -> name.equals("dialect") ? Optional.of(blind) : null);
        SqlSinkSettings settings =
                new SqlSinkSettings(
                        real.pipeline(),
                        real.sink(),
                        real.schema(),
                        real.run(),
                        real.bounded(),
                        real.mode(),
                        database);
        TestPg.exec("CREATE SCHEMA IF NOT EXISTS " + TestPg.quote(real.schema()));
        try (Connection c = TestPg.connect()) {
            assertThatThrownBy(
                            () -> new TargetTables(settings).ensure(c, "orders", ORDERS, List.of()))
                    .isInstanceOf(java.sql.SQLException.class)
                    .hasMessage(
                            "Table "
                                    + pg.table("orders")
                                    + " is not in the destination's catalog after creating it (did"
                                    + " the destination store it under another name?)");
        }
    }

    /**
     * {@code target} behind an interface, where {@code override} answers a method by name first (an
     * {@code Optional}: its value, empty for null) or passes it on (null).
     */
    @SuppressWarnings("unchecked")
    private static <T> T proxy(
            Class<T> type,
            T target,
            java.util.function.BiFunction<String, Object[], Optional<Object>> override) {
        return (T)
                Proxy.newProxyInstance(
                        type.getClassLoader(),
                        new Class<?>[] {type},
                        (p, method, args) -> {
                            Optional<Object> answer = override.apply(method.getName(), args);
                            if (answer != null) {
                                return answer.orElse(null);
                            }
                            try {
                                return method.invoke(target, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
    }

    @Test
    void replaceInAContinuousRunIsAConfigurationErrorBeforeAnythingStarts() {
        assertThatThrownBy(() -> pg.prepare("p", false, WriteMode.REPLACE))
                .isInstanceOf(io.skippr.config.ConfigException.class)
                .hasMessageContaining(
                        "pipelines.p.write_mode: replace loads a whole run into a new table and"
                                + " swaps it in, so it needs a bounded run: sync with --once");
    }
}
