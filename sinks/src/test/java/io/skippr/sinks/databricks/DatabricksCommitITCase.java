package io.skippr.sinks.databricks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Secret;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.databricks.fake.FakeDatabricks;
import io.skippr.sinks.sql.RecordedRequest;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.StoppingDatabase;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.staged.StagedLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Databricks sink's commit against the fake Databricks, where every statement commits alone: a
 * commit stopped between any two of its statements and repeated lands each row once.
 */
class DatabricksCommitITCase {
    static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(Column.of("id", DataType.INT64), Column.of("amount", DataType.INT32)),
                    List.of("id"),
                    "id");

    static FakeDatabricks fake;

    @BeforeAll
    static void start() throws Exception {
        fake = FakeDatabricks.start();
    }

    @AfterAll
    static void stop() throws Exception {
        fake.close();
    }

    /**
     * Passes when an append commit stopped right before its marker row (after COPY INTO the staging
     * table and the insert into the target had committed, each on its own) is asked to be retried,
     * the retry adds no row twice (count and sum of the ten rows, exactly), removes the staged
     * files and the staging table, and a replay is signalled as committed before.
     */
    @Test
    void anAppendStoppedBeforeItsMarkerRowLandsEachRowOnceWhenRepeated() throws Exception {
        String schema = schema();
        StoppingDatabase db = new StoppingDatabase(database(schema), "08006");
        SqlSinkSettings settings =
                SqlSinks.prepare(db.database(), "p", "lakehouse", schema, false, WriteMode.APPEND);
        Collection<SqlCommittable> committables = stage(settings, rows(1, 10, 0, List.of()));
        assertThat(staged(schema)).as("the staged part and its manifest").hasSize(2);
        db.stopAt(Pattern.compile("^INSERT INTO `[^`]+`\\.`_skippr_commits`"));
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(RecordedRequest.commit(committer, committables)).containsExactly("retry");
            assertThat(count(schema)).as("the rows landed before the marker").isEqualTo("10/550");
            assertThat(markers(schema)).isZero();
            assertThat(RecordedRequest.commit(committer, committables))
                    .containsExactly("committed");
            assertThat(count(schema)).isEqualTo("10/550");
            assertThat(markers(schema)).isEqualTo(1);
            assertThat(staged(schema)).as("staged files after the commit").isEmpty();
            assertThat(tables(schema)).containsExactlyInAnyOrder("_skippr_commits", "orders");
            assertThat(RecordedRequest.commit(committer, committables))
                    .containsExactly("already committed");
            assertThat(count(schema)).isEqualTo("10/550");
        }
    }

    /**
     * Passes when the rows of an append commit stopped right before its marker row, never repeated
     * (its run was cancelled), are read again by the next run and land once: the next run starts
     * from the last marker's positions, so it stages the same rows (same {@code _skippr_id}) with a
     * new {@code _skippr_synced_at}. Before, the append matched on both columns and loaded the ten
     * rows a second time (20/1100), as {@code DatabricksConformanceITCase}'s once-after-continuous
     * case did in CI when its cancel fell between the two statements.
     */
    @Test
    void anAppendStoppedBeforeItsMarkerRowAndReadAgainByTheNextRunLandsEachRowOnce()
            throws Exception {
        String schema = schema();
        StoppingDatabase db = new StoppingDatabase(database(schema), "08006");
        SqlSinkSettings cancelled =
                SqlSinks.prepare(db.database(), "p", "lakehouse", schema, false, WriteMode.APPEND);
        db.stopAt(Pattern.compile("^INSERT INTO `[^`]+`\\.`_skippr_commits`"));
        try (SqlCommitter committer = new SqlCommitter(cancelled, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(
                            RecordedRequest.commit(
                                    committer, stage(cancelled, rows(1, 10, 0, List.of()))))
                    .containsExactly("retry");
        }
        assertThat(count(schema)).as("the rows landed before the marker").isEqualTo("10/550");
        SqlSinkSettings next =
                SqlSinks.prepare(db.database(), "p", "lakehouse", schema, false, WriteMode.APPEND);
        List<Row> again =
                rows(1, 10, 0, List.of()).stream()
                        .map(r -> r.identified(r.id(), r.syncedAtMicros() + 60_000_000L))
                        .toList();
        try (SqlCommitter committer = new SqlCommitter(next, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(RecordedRequest.commit(committer, stage(next, again)))
                    .containsExactly("committed");
        }
        assertThat(count(schema)).isEqualTo("10/550");
        assertThat(markers(schema)).isEqualTo(1);
    }

    /**
     * Passes when a commit whose load put fewer rows in the staging table than the writer staged
     * fails, naming both counts, and commits nothing: here the set's manifest lists no part (as a
     * stale manifest or a load that skipped a file it believed loaded would). Before StagedFiles
     * checked the count, the commit loaded nothing, inserted its marker row and reported success:
     * ten rows lost.
     */
    @Test
    void aLoadThatPutsFewerRowsThanWereStagedFailsTheCommit() throws Exception {
        String schema = schema();
        DatabricksDatabase db = database(schema);
        SqlSinkSettings settings =
                SqlSinks.prepare(db, "p", "lakehouse", schema, false, WriteMode.APPEND);
        Collection<SqlCommittable> committables = stage(settings, rows(1, 10, 0, List.of()));
        String set =
                committables.stream()
                        .filter(c -> c.kind() == SqlCommittable.Kind.ROWS)
                        .findFirst()
                        .orElseThrow()
                        .staging();
        String manifest = StagedLayout.DEFAULT.manifest(schema, set);
        Map<String, String> metadata = db.stage().metadata(manifest);
        db.stage().put(manifest, "{\"entries\":[]}".getBytes(StandardCharsets.UTF_8), metadata);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThatThrownBy(() -> RecordedRequest.commit(committer, committables))
                    .hasMessageContaining(
                            "loading the staged set "
                                    + set
                                    + " put 0 rows in its staging table, and the writer staged"
                                    + " 10");
        }
        assertThat(markers(schema)).isZero();
    }

    /**
     * Passes when a merge commit stopped right before its marker row, and one stopped right after
     * its COPY INTO, both converge when repeated: updates applied once, the deleted key gone, each
     * key once (count and sum exact).
     */
    @Test
    void aMergeStoppedBetweenItsStatementsConvergesWhenRepeated() throws Exception {
        String schema = schema();
        StoppingDatabase db = new StoppingDatabase(database(schema), "08006");
        SqlSinkSettings settings =
                SqlSinks.prepare(db.database(), "p", "lakehouse", schema, false, WriteMode.MERGE);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            Collection<SqlCommittable> first = stage(settings, rows(1, 10, 0, List.of()));
            db.stopAt(Pattern.compile("^MERGE INTO"));
            assertThat(RecordedRequest.commit(committer, first)).containsExactly("retry");
            assertThat(count(schema))
                    .as("stopped after COPY INTO, the target created")
                    .isEqualTo("0/0");
            assertThat(RecordedRequest.commit(committer, first)).containsExactly("committed");
            assertThat(count(schema)).isEqualTo("10/550");

            // ids 1-5 get amount + 1, id 10 is deleted
            List<Row> changes = new ArrayList<>(rows(1, 5, 1, List.of()));
            changes.addAll(rows(10, 10, 0, List.of(10L)));
            Collection<SqlCommittable> second = stage(settings, changes, 2L);
            db.stopAt(Pattern.compile("^INSERT INTO `[^`]+`\\.`_skippr_commits`"));
            assertThat(RecordedRequest.commit(committer, second)).containsExactly("retry");
            assertThat(count(schema)).as("merged before the marker").isEqualTo("9/455");
            assertThat(RecordedRequest.commit(committer, second)).containsExactly("committed");
            assertThat(count(schema)).isEqualTo("9/455");
            assertThat(markers(schema)).isEqualTo(2);
            assertThat(staged(schema)).isEmpty();
        }
    }

    private static String schema() {
        return "skippr_dbx_commit_" + Long.toHexString(System.nanoTime() >>> 8);
    }

    static DatabricksDatabase database(String schema) {
        DatabricksWorkspace workspace =
                DatabricksWorkspace.of(
                        "127.0.0.1",
                        "/sql/1.0/warehouses/" + FakeDatabricks.WAREHOUSE_ID,
                        new Secret(fake.token()),
                        fake.url());
        return new DatabricksDatabase(
                workspace, "main", new VolumeStage(workspace, "main", schema, "skippr_staging"));
    }

    private static Collection<SqlCommittable> stage(SqlSinkSettings settings, List<Row> rows)
            throws Exception {
        return stage(settings, rows, 1L);
    }

    private static Collection<SqlCommittable> stage(
            SqlSinkSettings settings, List<Row> rows, long checkpoint) throws Exception {
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.of(checkpoint - 1), List.of())) {
            writer.write(new SchemaChange(ORDERS), null);
            for (Row row : rows) {
                writer.write(row, null);
            }
            return writer.prepareCommit();
        }
    }

    /** Rows {@code from..to} with amount {@code id * 10 + plus}; ids in {@code deleted} deleted. */
    private static List<Row> rows(long from, long to, int plus, List<Long> deleted) {
        List<Row> rows = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            String position = "orders#" + id + "#" + plus + (deleted.contains(id) ? "d" : "");
            rows.add(
                    new Row(
                            "orders",
                            ORDERS.version(),
                            deleted.contains(id) ? Operation.DELETE : Operation.INSERT,
                            new Object[] {id, (int) id * 10 + plus},
                            position,
                            SkipprId.of("orders", position),
                            1_700_000_000_000_000L + plus));
        }
        return rows;
    }

    private static List<String> staged(String schema) throws IOException {
        return database(schema).stage().list("skippr-staging/");
    }

    private static String count(String schema) throws Exception {
        try (Connection c = database(schema).connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*), coalesce(sum(amount), 0) FROM `"
                                        + schema
                                        + "`.`orders`")) {
            rs.next();
            return rs.getLong(1) + "/" + rs.getLong(2);
        } catch (SQLException e) {
            if (e.getMessage().contains("TABLE_OR_VIEW_NOT_FOUND")) {
                return "no table";
            }
            throw e;
        }
    }

    private static long markers(String schema) throws Exception {
        try (Connection c = database(schema).connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*) FROM `" + schema + "`.`_skippr_commits`")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The tables of the schema, from the fake's backing database. */
    private static List<String> tables(String schema) throws Exception {
        try (Connection c = fake.backing();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT table_name FROM information_schema.tables WHERE"
                                        + " table_schema = (SELECT pg_schema FROM \"_fake\".schemas"
                                        + " WHERE catalog = 'main' AND name = '"
                                        + schema
                                        + "')")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
