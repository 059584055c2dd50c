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
 * one transaction, which the run's commit finishes; a writer that fails and starts again replaces
 * its rows there; an error that breaks the transaction rolls the run back, and the commit then
 * refuses to commit part of the run.
 */
class DuckDbRunTransactionITCase {
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

    /** Writer 1 fails after 200 of its rows, as a task fails and closes its writer. */
    private static void failAfter200(SqlSinkSettings settings) throws Exception {
        try (SqlStagingWriter failing =
                new SqlStagingWriter(settings, 1, 2, OptionalLong.empty(), List.of())) {
            failing.write(new SchemaChange(ORDERS), null);
            for (long id = 500; id < 700; id++) {
                failing.write(row(id, (int) id * 10, Operation.INSERT), null);
            }
        }
    }

    /**
     * Flink's region failover starts a failed writer again alone: its new attempt appends its rows
     * again into the same transaction, and the commit keeps one copy of each, with the other
     * writer's rows. (Before the fix, the failure rolled the run back and the commit refused it.)
     */
    @Test
    void aWriterThatFailsBeforeItsEndIsReplacedByItsNextAttempt() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = load(settings, 0);
        failAfter200(settings);
        all.addAll(load(settings, 1)); // the restarted attempt, in the same transaction
        assertThat(duck.exists("orders")).as("nothing is visible before the commit").isFalse();
        assertThat(duck.staging()).as("the rows went straight into the target").isEmpty();

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(committer, all)).containsExactly("committed");
        }
        assertOrdersOnce(1000);
        assertThat(duck.one("SELECT count(*), sum(rows) FROM main._skippr_commits"))
                .containsExactly("2", "1000");
    }

    @Test
    void aWriterStartedAgainAfterItsEndIsReplacedByItsNextAttempt() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        duck.exec(
                "CREATE TABLE main.orders (id BIGINT, amount INTEGER, _skippr_id VARCHAR,"
                        + " _skippr_synced_at TIMESTAMP WITH TIME ZONE)",
                "INSERT INTO main.orders VALUES (-1, 5, 'an earlier run''s row', now()),"
                        + " (-1, 5, 'an earlier run''s row', now())");
        List<SqlCommittable> all = load(settings, 0);
        load(settings, 1);
        all.addAll(load(settings, 1)); // a second attempt of subtask 1, after its end
        assertThat(duck.staging()).as("the rows went straight into the target").isEmpty();
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(committer, all)).containsExactly("committed");
        }
        assertThat(duck.one("SELECT count(*) FROM main.orders WHERE id = -1"))
                .as("rows that were in the table before the run are not touched")
                .containsExactly("2");
        duck.exec("DELETE FROM main.orders WHERE id = -1");
        assertOrdersOnce(1000);
    }

    /**
     * A statement that fails inside the run's transaction aborts it in DuckDB: the run is rolled
     * back, the writer started again loads into a new transaction, and the commit refuses to commit
     * part of the run.
     */
    @Test
    void aFailureThatBreaksTheTransactionRollsTheRunBackAndItsCommitSaysSo() throws Exception {
        SqlSinkSettings settings = duck.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = load(settings, 0);
        try (SqlStagingWriter failing =
                new SqlStagingWriter(settings, 1, 2, OptionalLong.empty(), List.of())) {
            failing.write(new SchemaChange(ORDERS), null);
            failing.write(row(500, 5000, Operation.INSERT), null);
            RunTransaction run = RunTransaction.join(duck.database(), settings, 7);
            assertThatThrownBy(
                            () ->
                                    run.connection()
                                            .createStatement()
                                            .execute("SELECT * FROM main.no_such_table"))
                    .hasMessageContaining("no_such_table");
            run.left(7);
        }
        all.addAll(load(settings, 1)); // the restarted attempt, in a new transaction

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThatThrownBy(() -> commit(committer, all))
                    .isInstanceOf(SqlSinkException.class)
                    .hasMessage(
                            "Bounded run 1 of pipeline p loaded DuckDB database file "
                                    + duck.file.toAbsolutePath().normalize()
                                    + " in one transaction, and the rows of writer subtasks [0]"
                                    + " are not in it: an error inside that transaction made"
                                    + " DuckDB roll it back, with what every writer subtask had"
                                    + " loaded, and a writer subtask started again in a new one."
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
