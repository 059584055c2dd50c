package io.skippr.sinks.redshift;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.RecordedRequest;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.WriteMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/** The Redshift sink's commit, against the twin. */
class RedshiftCommitITCase {
    static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(Column.of("id", DataType.INT64), Column.of("amount", DataType.INT32)),
                    List.of("id"),
                    "id");

    private TestRedshift redshift;
    private final String schema = "skippr_rs_commit_" + Long.toHexString(System.nanoTime() >>> 8);

    @BeforeEach
    void start() throws Exception {
        redshift = new TestRedshift();
    }

    @AfterEach
    void stop() throws Exception {
        try (Connection c = redshift.database().connect();
                Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        }
        redshift.close();
    }

    /**
     * Passes when a commit that Redshift refuses with its serializable isolation error 1023 (the
     * twin injects it at the commit's first statement, the LOCK of the marker table) is asked to be
     * retried, the retry lands each row once and removes the staged files, and a replay is
     * signalled as committed before and changes nothing.
     */
    @Test
    void aCommitRefusedWithError1023IsRetriedAndLandsOnce() throws Exception {
        RedshiftDatabase db = redshift.database();
        SqlSinkSettings settings =
                SqlSinks.prepare(db, "p", "warehouse", schema, false, WriteMode.APPEND);
        Collection<SqlCommittable> committables;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            writer.write(new SchemaChange(ORDERS), null);
            for (long id = 1; id <= 10; id++) {
                writer.write(row(id), null);
            }
            committables = writer.prepareCommit();
        }
        assertThat(staged()).as("the staged set and its manifest").hasSize(2);
        redshift.twin.failNext(Pattern.compile("^LOCK "), 1);
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(RecordedRequest.commit(committer, committables)).containsExactly("retry");
            assertThat(count()).as("the refused transaction left nothing").isEqualTo("no table");
            assertThat(RecordedRequest.commit(committer, committables))
                    .containsExactly("committed");
            assertThat(count()).isEqualTo("10/550");
            assertThat(staged()).as("staged files after the commit").isEmpty();
            assertThat(RecordedRequest.commit(committer, committables))
                    .containsExactly("already committed");
            assertThat(count()).isEqualTo("10/550");
        }
        assertThat(redshift.twin.statements())
                .anyMatch(s -> s.startsWith("COPY \"" + schema + "\".\"_skippr_stage_"));
    }

    private List<String> staged() {
        try (S3Client s3 = TestRedshift.s3().open()) {
            return s3.listObjectsV2Paginator(b -> b.bucket(redshift.bucket)).contents().stream()
                    .map(o -> o.key())
                    .toList();
        }
    }

    private String count() throws Exception {
        try (Connection c = redshift.database().connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*), coalesce(sum(amount), 0) FROM \""
                                        + schema
                                        + "\".orders")) {
            rs.next();
            return rs.getLong(1) + "/" + rs.getLong(2);
        } catch (java.sql.SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return "no table";
            }
            throw e;
        }
    }

    private static Row row(long id) {
        String position = "orders#" + id;
        return new Row(
                "orders",
                ORDERS.version(),
                Operation.INSERT,
                new Object[] {id, (int) id * 10},
                position,
                SkipprId.of("orders", position),
                1_700_000_000_000_000L);
    }
}
