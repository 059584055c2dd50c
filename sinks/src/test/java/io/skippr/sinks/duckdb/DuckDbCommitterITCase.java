package io.skippr.sinks.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.WriteMode;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit protocol on DuckDB step by step, without Flink: a commit lands once and its replay is
 * a no-op; merge upserts and deletes; replace swaps the table.
 */
class DuckDbCommitterITCase {
    static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(Column.of("id", DataType.INT64), Column.of("amount", DataType.INT32)),
                    List.of("id"),
                    "id");

    @TempDir Path dir;
    private TestDuck duck;

    @BeforeEach
    void database() {
        duck = new TestDuck(dir, "main");
    }

    @AfterEach
    void released() {
        assertThat(DuckDbInstances.users(duck.database().url()))
                .as("every connection the writers and committers opened is closed")
                .isZero();
    }

    static List<String> commit(SqlCommitter committer, Collection<SqlCommittable> committables)
            throws Exception {
        return io.skippr.sinks.sql.RecordedRequest.commit(committer, committables);
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

    /** One writer's pre-commit of {@code rows}. */
    static Collection<SqlCommittable> staged(SqlSinkSettings settings, List<Row> rows)
            throws Exception {
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            writer.write(new SchemaChange(ORDERS), null);
            for (Row row : rows) {
                writer.write(row, null);
            }
            return writer.prepareCommit();
        }
    }

    private List<List<String>> orders() throws Exception {
        return duck.rows("SELECT id, amount FROM main.orders ORDER BY id");
    }

    /** The staged path of a bounded append run, with the run's one transaction switched off. */
    @Test
    void aBoundedCommitLandsOnceAndItsReplayIsANoOp() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        System.setProperty(DuckDbDatabase.RUN_TRANSACTION, "false");
        Collection<SqlCommittable> committables;
        try {
            committables =
                    staged(
                            settings,
                            List.of(
                                    row(1, 10, Operation.INSERT),
                                    row(2, 20, Operation.INSERT),
                                    row(3, 30, Operation.INSERT)));
        } finally {
            System.clearProperty(DuckDbDatabase.RUN_TRANSACTION);
        }
        assertThat(duck.staging()).hasSize(1);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(committer, committables)).containsExactly("committed");
            assertThat(commit(committer, committables)).containsExactly("already committed");
        }
        try (SqlCommitter again = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(again, committables))
                    .as("a replay after a restart")
                    .containsExactly("already committed");
        }
        assertThat(orders())
                .containsExactly(List.of("1", "10"), List.of("2", "20"), List.of("3", "30"));
        assertThat(
                        duck.one(
                                "SELECT count(*), sum(rows), bool_and(bounded) FROM main._skippr_commits"))
                .containsExactly("1", "3", "true");
        assertThat(duck.staging()).isEmpty();
        assertThat(
                        io.skippr.sinks.sql.SqlSinks.committedPositions(
                                duck.prepare("p", true, WriteMode.APPEND)))
                .containsEntry("orders", "3");
    }

    @Test
    void aCheckpointCommitLandsOnceAndItsReplayIsANoOp() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", false, WriteMode.APPEND);
        Collection<SqlCommittable> committables =
                staged(
                        settings,
                        List.of(row(1, 10, Operation.INSERT), row(2, 20, Operation.INSERT)));
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, committables)).containsExactly("committed");
            assertThat(commit(committer, committables)).containsExactly("already committed");
        }
        assertThat(orders()).hasSize(2);
    }

    @Test
    void mergeUpsertsOnTheKeyAndAppliesDeletes() throws Exception {
        SqlSinkSettings first = duck.prepare("p", true, WriteMode.MERGE);
        try (SqlCommitter committer = new SqlCommitter(first, SqlCommitter.Scope.RUN)) {
            commit(
                    committer,
                    staged(
                            first,
                            List.of(
                                    row(1, 10, Operation.INSERT),
                                    row(2, 20, Operation.INSERT),
                                    row(3, 30, Operation.INSERT))));
        }
        SqlSinkSettings second = duck.prepare("p", true, WriteMode.MERGE);
        try (SqlCommitter committer = new SqlCommitter(second, SqlCommitter.Scope.RUN)) {
            commit(
                    committer,
                    staged(
                            second,
                            List.of(
                                    row(1, 11, Operation.UPDATE),
                                    row(2, 0, Operation.DELETE),
                                    row(4, 40, Operation.INSERT),
                                    row(1, 12, Operation.UPDATE))));
        }
        assertThat(orders())
                .containsExactly(List.of("1", "12"), List.of("3", "30"), List.of("4", "40"));
    }

    @Test
    void replaceSwapsInTheRunsRows() throws Exception {
        SqlSinkSettings first = duck.prepare("p", true, WriteMode.REPLACE);
        try (SqlCommitter committer = new SqlCommitter(first, SqlCommitter.Scope.RUN)) {
            commit(
                    committer,
                    staged(
                            first,
                            List.of(row(1, 10, Operation.INSERT), row(2, 20, Operation.INSERT))));
        }
        duck.exec("CREATE VIEW main.big_orders AS SELECT * FROM main.orders WHERE amount > 15");
        SqlSinkSettings second = duck.prepare("p", true, WriteMode.REPLACE);
        try (SqlCommitter committer = new SqlCommitter(second, SqlCommitter.Scope.RUN)) {
            commit(
                    committer,
                    staged(
                            second,
                            List.of(row(7, 70, Operation.INSERT), row(8, 5, Operation.INSERT))));
        }
        assertThat(orders()).containsExactly(List.of("7", "70"), List.of("8", "5"));
        assertThat(duck.rows("SELECT id FROM main.big_orders")).containsExactly(List.of("7"));
        assertThat(duck.rows("SELECT table_name FROM duckdb_tables() ORDER BY 1"))
                .containsExactly(
                        List.of("_skippr_commits"), List.of("_skippr_loads"), List.of("orders"));
    }
}
