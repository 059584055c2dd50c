package io.skippr.sinks.postgres;

import static io.skippr.sinks.postgres.PostgresCommitterITCase.commit;
import static io.skippr.sinks.postgres.PostgresCommitterITCase.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.WriteMode;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fast path of bounded append runs (rows COPYed into the target inside a prepared transaction
 * per writer) as a recovery checklist, without Flink: the writers and the global committer called
 * directly. The test server has {@code max_prepared_transactions = 64}.
 */
class PostgresPreparedITCase {
    private TestPg pg;

    @BeforeEach
    void schema() {
        pg = new TestPg();
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    /** Two writers, subtask 0 with ids [0, 50) and subtask 1 with [50, 100): pre-committed. */
    private List<SqlCommittable> prepareBoth(SqlSinkSettings settings) throws Exception {
        List<SqlCommittable> all = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            try (SqlStagingWriter writer =
                    new SqlStagingWriter(settings, subtask, 2, OptionalLong.empty(), List.of())) {
                write(writer, subtask * 50L, subtask * 50L + 50);
                all.addAll(writer.prepareCommit());
            }
        }
        return all;
    }

    /** count, distinct ids and sum of ids of the target. */
    private List<String> checksum() throws Exception {
        return TestPg.one(
                "SELECT count(*), count(DISTINCT _skippr_id), coalesce(sum(id), 0) FROM "
                        + pg.table("orders"));
    }

    private List<String> kinds(List<SqlCommittable> committables) {
        return committables.stream().map(c -> c.kind().name()).distinct().sorted().toList();
    }

    @Test
    void theRunsRowsGoIntoTheTargetInPreparedTransactionsThatTheCommitCommits() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = prepareBoth(settings);

        assertThat(kinds(all)).containsExactly("END", "PREPARED");
        assertThat(pg.prepared()).hasSize(2);
        assertThat(pg.staging()).as("nothing is staged").isEmpty();
        assertThat(checksum()).as("prepared rows are invisible").containsExactly("0", "0", "0");

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(committer, all)).containsExactly("committed");
        }
        assertThat(pg.prepared()).isEmpty();
        assertThat(checksum()).containsExactly("100", "100", "4950");
        assertThat(
                        TestPg.rows(
                                "SELECT subtask, rows, positions FROM "
                                        + pg.table("_skippr_commits")
                                        + " ORDER BY subtask"))
                .containsExactly(
                        List.of("0", "50", "{\"orders\":{\"type\":\"INT64\",\"value\":\"49\"}}"),
                        List.of("1", "50", "{\"orders\":{\"type\":\"INT64\",\"value\":\"99\"}}"));
    }

    @Test
    void aReplayedCommitIsANoOp() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = prepareBoth(settings);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            commit(committer, all);
        }
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            assertThat(commit(committer, all)).containsExactly("already committed");
        }
        assertThat(checksum()).containsExactly("100", "100", "4950");
    }

    @Test
    void aRunThatStoppedBeforeItsCommitIsRolledBackWhenTheNextRunStarts() throws Exception {
        prepareBoth(pg.prepare("p", true, WriteMode.APPEND));
        assertThat(pg.prepared()).hasSize(2);

        SqlSinkSettings next = pg.prepare("p", true, WriteMode.APPEND);

        assertThat(pg.prepared()).isEmpty();
        assertThat(checksum()).containsExactly("0", "0", "0");
        assertThat(next.run()).as("the run never committed, so its number is used again").isOne();
        assertThat(io.skippr.sinks.sql.SqlSinks.committedPositions(next)).isEmpty();
    }

    @Test
    void whenAFailedRunEndsItsSinkRollsBackWhatItsWritersPrepared() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
        prepareBoth(settings); // and the job failed before its commit

        io.skippr.sinks.sql.SqlSinks.sink(
                        settings,
                        io.skippr.core.spi.RowCheck.NONE,
                        io.skippr.core.spi.FailPoint.NONE)
                .afterRun();

        assertThat(pg.prepared()).isEmpty();
        assertThat(checksum()).containsExactly("0", "0", "0");
    }

    @Test
    void aRestartedWriterRollsBackWhatItsEarlierAttemptPrepared() throws Exception {
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
        try (SqlStagingWriter first =
                new SqlStagingWriter(settings, 0, 2, OptionalLong.empty(), List.of())) {
            write(first, 1000, 1010); // an attempt whose output nobody commits
            first.prepareCommit();
        }
        List<SqlCommittable> all = prepareBoth(settings);
        assertThat(pg.prepared()).hasSize(2);

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            commit(committer, all);
        }
        assertThat(checksum()).containsExactly("100", "100", "4950");
    }

    @Test
    void withTheFastPathOffTheRunIsStagedAndCommittedAsBefore() throws Exception {
        try (AutoCloseable staging = TestPg.stagingOnly()) {
            SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
            List<SqlCommittable> all = prepareBoth(settings);
            assertThat(kinds(all)).containsExactly("END", "ROWS");
            assertThat(pg.prepared()).isEmpty();
            assertThat(pg.staging()).hasSize(2);
            try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
                commit(committer, all);
            }
        }
        assertThat(checksum()).containsExactly("100", "100", "4950");
        assertThat(pg.staging()).isEmpty();
    }

    @Test
    void aTargetWhoseColumnIsWiderThanTheStreamsTakesItsRowsThroughStaging() throws Exception {
        TestPg.exec(
                "CREATE SCHEMA " + TestPg.quote(pg.schema),
                "CREATE TABLE "
                        + pg.table("orders")
                        + " (id numeric, amount integer, _skippr_id text,"
                        + " _skippr_synced_at timestamptz)");
        SqlSinkSettings settings = pg.prepare("p", true, WriteMode.APPEND);
        List<SqlCommittable> all = prepareBoth(settings);
        assertThat(kinds(all)).containsExactly("END", "ROWS");
        assertThat(pg.prepared()).isEmpty();

        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.RUN)) {
            commit(committer, all);
        }
        assertThat(checksum()).containsExactly("100", "100", "4950");
        assertThat(
                        TestPg.one(
                                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                                        + " WHERE attrelid = '"
                                        + pg.table("orders").replace("'", "''")
                                        + "'::regclass AND attname = 'id'"))
                .containsExactly("numeric");
    }
}
