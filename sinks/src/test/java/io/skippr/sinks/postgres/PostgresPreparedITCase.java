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
        // each writer's prepared transaction took its loads along with its marker row
        for (int subtask = 0; subtask < 2; subtask++) {
            assertThat(
                            TestPg.one(
                                    "SELECT stream, mode, rows, position_type, position_from,"
                                            + " position_to, checksum = (SELECT (sum(('x' ||"
                                            + " substr(_skippr_id, 1, 15))::bit(60)::bigint)"
                                            // the sum wraps at 2^64, as a Java long does
                                            + " + 9223372036854775808) % 18446744073709551616"
                                            + " - 9223372036854775808 FROM "
                                            + pg.table("orders")
                                            + " WHERE id BETWEEN position_from::bigint AND"
                                            + " position_to::bigint) FROM "
                                            + pg.table("_skippr_loads")
                                            + " WHERE subtask = "
                                            + subtask))
                    .containsExactly(
                            "orders",
                            "once",
                            "50",
                            "INT64",
                            Long.toString(subtask * 50L),
                            Long.toString(subtask * 50L + 49),
                            "t");
        }
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

    /**
     * The id prefix Skippr gave prepared transactions before ids carried database and schema:
     * {@code skippr_} and 24 hex digits of pipeline and sink (restated here, not taken from the
     * code under test).
     */
    private static String legacyPrefix(String pipeline) {
        return "skippr_"
                + io.skippr.core.record.SkipprId.of("prepared", pipeline + "\u0000" + "warehouse")
                        .substring(0, 24)
                + "_";
    }

    /** A marker row of run 1, subtask {@code subtask}, of {@code pipeline}'s bounded run. */
    private static String markerRow(String markers, String pipeline, int subtask) {
        return "INSERT INTO "
                + markers
                + " (pipeline, sink, run, checkpoint, subtask, parallelism, bounded, write_mode,"
                + " rows, positions) VALUES ('"
                + pipeline
                + "', 'warehouse', 1, 0, "
                + subtask
                + ", 2, true, 'append', 3, '{}')";
    }

    /** Three rows into {@code target}: ids 1, 2, 3. */
    private static String threeRows(String target) {
        return "INSERT INTO "
                + target
                + " (id, amount, _skippr_id) VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')";
    }

    private void createOrders(TestPg in) throws Exception {
        TestPg.exec(
                "CREATE SCHEMA IF NOT EXISTS " + TestPg.quote(in.schema),
                "CREATE TABLE "
                        + in.table("orders")
                        + " (id bigint, amount integer, _skippr_id text,"
                        + " _skippr_synced_at timestamptz)");
    }

    private static List<String> stillPrepared(String gid) throws Exception {
        return TestPg.rows(
                        "SELECT gid FROM pg_prepared_xacts WHERE gid = '"
                                + gid
                                + "' AND database = current_database()")
                .stream()
                .map(r -> r.get(0))
                .toList();
    }

    /**
     * Prepared transactions an earlier Skippr left (ids without database and schema) are finished
     * by the next start as the sink's own are: one whose run has a marker row is committed (its
     * rows appear), one whose run has none is rolled back (its rows and the marker row inside it
     * vanish, and the run number is used again); one that holds no table lock changed nothing and
     * is rolled back.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "run decided: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void preparedTransactionsAnEarlierSkipprLeftAreFinishedByTheirRunsMarker(boolean decided)
            throws Exception {
        String pipeline = "legacy_" + Long.toHexString(System.nanoTime());
        pg.prepare(pipeline, true, WriteMode.APPEND); // the schema and the marker table
        createOrders(pg);
        String markers = pg.table("_skippr_commits");
        String gid = legacyPrefix(pipeline) + "1_0";
        String empty = legacyPrefix(pipeline) + "1_commit";
        try (java.sql.Connection c = TestPg.connect();
                java.sql.Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute(threeRows(pg.table("orders")));
            st.execute(markerRow(markers, pipeline, 0)); // its marker row inside, as 24f54e6 did
            st.execute("PREPARE TRANSACTION '" + gid + "'");
            st.execute("SELECT 1");
            st.execute("PREPARE TRANSACTION '" + empty + "'");
            c.setAutoCommit(true);
            if (decided) {
                st.execute(markerRow(markers, pipeline, 1)); // another subtask's, committed
            }
        }

        try {
            SqlSinkSettings next = pg.prepare(pipeline, true, WriteMode.APPEND);

            assertThat(stillPrepared(gid)).isEmpty();
            assertThat(stillPrepared(empty)).isEmpty();
            assertThat(checksum())
                    .isEqualTo(decided ? List.of("3", "3", "6") : List.of("0", "0", "0"));
            assertThat(next.run()).isEqualTo(decided ? 2 : 1);
        } finally {
            for (String left : List.of(gid, empty)) { // a failed test leaves the server clean
                if (!stillPrepared(left).isEmpty()) {
                    TestPg.exec("ROLLBACK PREPARED '" + left + "'");
                }
            }
        }
    }

    /**
     * A prepared transaction an earlier Skippr left for a pipeline of the same names loading
     * another schema (the old ids did not tell them apart) is that pipeline's: this sink's start
     * leaves it prepared, though this sink's run of that number is decided.
     */
    @Test
    void anEarlierSkipprsPreparedTransactionOfAnotherSchemaIsLeftToIt() throws Exception {
        String pipeline = "legacy_" + Long.toHexString(System.nanoTime());
        TestPg other = new TestPg();
        String gid = legacyPrefix(pipeline) + "1_0";
        try {
            other.prepare(pipeline, true, WriteMode.APPEND);
            createOrders(other);
            pg.prepare(pipeline, true, WriteMode.APPEND);
            try (java.sql.Connection c = TestPg.connect();
                    java.sql.Statement st = c.createStatement()) {
                st.execute(markerRow(pg.table("_skippr_commits"), pipeline, 0)); // ours decided
                c.setAutoCommit(false);
                st.execute(threeRows(other.table("orders")));
                st.execute("PREPARE TRANSACTION '" + gid + "'");
            }

            pg.prepare(pipeline, true, WriteMode.APPEND);

            assertThat(other.prepared()).containsExactly(gid);
            assertThat(TestPg.one("SELECT count(*) FROM " + pg.table("_skippr_commits")))
                    .containsExactly("1");
        } finally {
            TestPg.exec("ROLLBACK PREPARED '" + gid + "'");
            other.close();
        }
    }
}
