package io.skippr.sinks.duckdb;

import static io.skippr.sinks.duckdb.DuckDbCommitterITCase.ORDERS;
import static io.skippr.sinks.duckdb.DuckDbCommitterITCase.commit;
import static io.skippr.sinks.duckdb.DuckDbCommitterITCase.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Operation;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.spi.FailPoint;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.WriteMode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DuckDB's fast path for bounded append runs ({@link RunTransaction}, {@link DuckDbRunLoader}),
 * step by step without Flink: two writer subtasks append straight into the target inside the run's
 * one transaction, which the run's commit finishes; a writer that stops or starts again discards
 * it, and the commit then refuses to commit part of the run.
 */
class DuckDbRunTransactionITCase {
    @TempDir Path dir;
    private TestDuck duck;

    @BeforeEach
    void database() {
        duck = new TestDuck(dir, "main");
        System.setProperty(DuckDbDatabase.RUN_TRANSACTION, "true"); // off by default
    }

    @AfterEach
    void released() {
        System.clearProperty(DuckDbDatabase.RUN_TRANSACTION);
        assertThat(DuckDbInstances.users(duck.database().url()))
                .as("every connection the writers and committers opened is closed")
                .isZero();
    }

    /** Writer {@code subtask} of 2 loads ids {@code from} to {@code to}, then ends its input. */
    private static List<SqlCommittable> load(
            SqlSinkSettings settings, int subtask, long from, long to, FailPoint fails)
            throws Exception {
        try (SqlStagingWriter writer =
                new SqlStagingWriter(
                        settings, subtask, 2, OptionalLong.empty(), List.of(), fails)) {
            writer.write(new SchemaChange(ORDERS), null);
            for (long id = from; id < to; id++) {
                writer.write(row(id, (int) id * 10, Operation.INSERT), null);
            }
            return new ArrayList<>(writer.prepareCommit());
        }
    }

    private static List<SqlCommittable> load(SqlSinkSettings settings, int subtask)
            throws Exception {
        return load(settings, subtask, subtask * 500L, subtask * 500L + 500, FailPoint.NONE);
    }

    private void assertOrdersOnce(int n) throws Exception {
        assertThat(
                        duck.one(
                                "SELECT count(*), count(DISTINCT id), sum(id), sum(amount) FROM main.orders"))
                .containsExactly(
                        String.valueOf(n),
                        String.valueOf(n),
                        String.valueOf((long) n * (n - 1) / 2),
                        String.valueOf(10L * n * (n - 1) / 2));
    }

    @Test
    void writersAppendToTheTargetInOneTransactionThatTheRunsCommitCommits() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = load(settings, 0);
        all.addAll(load(settings, 1));

        assertThat(all.stream().filter(c -> c.rows() > 0).map(SqlCommittable::kind))
                .containsExactly(SqlCommittable.Kind.HELD, SqlCommittable.Kind.HELD);
        assertThat(duck.staging()).as("no row went through a staging table").isEmpty();
        assertThat(duck.exists("orders"))
                .as("the target the writers created is not visible before the commit")
                .isFalse();
        Instant loaded = Instant.now();

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(committer, all)).containsExactly("committed");
        }
        try (SqlCommitter again = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(again, all))
                    .as("a replay after the commit finds its marker")
                    .containsExactly("already committed");
        }
        assertOrdersOnce(1000);
        assertThat(duck.one("SELECT count(*), sum(rows) FROM main._skippr_commits"))
                .containsExactly("2", "1000");
        assertThat(SqlSinks.committedPositions(duck.prepare("p", true, WriteMode.APPEND)))
                .containsEntry("orders", "999");
        List<String> load =
                duck.one(
                        "SELECT sum(rows), count(*), min(committed_at) >= TIMESTAMPTZ '"
                                + loaded
                                + "' FROM main._skippr_loads");
        assertThat(load)
                .as("_skippr_loads says when the commit ran, not when the run's transaction began")
                .containsExactly("1000", "2", "true");
    }

    @Test
    void aWriterThatStopsBeforeItsEndRollsTheRunBackAndItsCommitSaysSo() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = load(settings, 0);
        try (SqlStagingWriter failing =
                new SqlStagingWriter(settings, 1, 2, OptionalLong.empty(), List.of())) {
            failing.write(new SchemaChange(ORDERS), null);
            for (long id = 500; id < 700; id++) {
                failing.write(row(id, (int) id * 10, Operation.INSERT), null);
            }
        } // closed before the end of its input, as a failing task closes its writer
        all.addAll(load(settings, 1)); // the restarted attempt, in a new transaction

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThatThrownBy(() -> commit(committer, all))
                    .isInstanceOf(SqlSinkException.class)
                    .hasMessage(
                            "Bounded run 1 of pipeline p loaded DuckDB database file "
                                    + duck.file.toAbsolutePath().normalize()
                                    + " in one transaction, and the rows of writer subtasks [0]"
                                    + " are not in it: a writer subtask started again after a"
                                    + " failure, which rolled back what the others had loaded."
                                    + " Nothing of the run was committed; run the pipeline again");
        }
        assertThat(duck.exists("orders")).isFalse();
        assertThat(duck.one("SELECT count(*) FROM main._skippr_commits")).containsExactly("0");

        SqlSinkSettings rerun = duck.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> again = load(rerun, 0);
        again.addAll(load(rerun, 1));
        try (SqlCommitter committer = new SqlCommitter(rerun, SqlCommitter.Scope.RUN)) {
            commit(committer, again);
        }
        assertOrdersOnce(1000);
    }

    @Test
    void aWriterStartedAgainAfterItsEndDiscardsTheRun() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = load(settings, 0);
        load(settings, 1);
        List<SqlCommittable> restarted = load(settings, 1); // a second attempt of subtask 1
        all.addAll(restarted);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThatThrownBy(() -> commit(committer, all))
                    .isInstanceOf(SqlSinkException.class)
                    .hasMessageContaining("the rows of writer subtasks [0] are not in it");
        }
        assertThat(duck.exists("orders")).isFalse();
    }

    @Test
    void aTargetWhoseColumnsDifferIsStagedInsideTheRunsTransaction() throws Exception {
        duck.exec(
                "CREATE TABLE main.orders (id BIGINT, amount BIGINT, note VARCHAR,"
                        + " _skippr_id VARCHAR, _skippr_synced_at TIMESTAMP WITH TIME ZONE)");
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = load(settings, 0);
        all.addAll(load(settings, 1));
        assertThat(all.stream().filter(c -> c.rows() > 0).map(SqlCommittable::kind))
                .containsExactly(SqlCommittable.Kind.ROWS, SqlCommittable.Kind.ROWS);
        assertThat(duck.staging())
                .as("its staging tables are in the run's transaction, not committed")
                .isEmpty();

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            commit(committer, all);
        }
        assertOrdersOnce(1000);
        assertThat(duck.one("SELECT count(note) FROM main.orders")).containsExactly("0");
        assertThat(duck.staging()).isEmpty();
    }

    @Test
    void aMergeRunStagesAsBefore() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.MERGE);
        List<SqlCommittable> all = load(settings, 0);
        all.addAll(load(settings, 1));
        assertThat(all.stream().filter(c -> c.rows() > 0).map(SqlCommittable::kind))
                .containsExactly(SqlCommittable.Kind.ROWS, SqlCommittable.Kind.ROWS);
        assertThat(duck.staging()).hasSize(2);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            commit(committer, all);
        }
        assertOrdersOnce(1000);
    }
}
