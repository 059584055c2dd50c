package io.skippr.sinks.synapse;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Secret;
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
import io.skippr.sinks.sql.StoppingDatabase;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.synapse.fake.FakeSynapse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Synapse sink's commit against the fake Synapse, where the commit's DDL runs before its
 * transaction: a commit whose transaction failed after that DDL (a lost connection at the COPY
 * INTO) is retried, and the retry finds its staging table there and lands each row once.
 */
class SynapseCommitITCase {
    static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(Column.of("id", DataType.INT64), Column.of("amount", DataType.INT32)),
                    List.of("id"),
                    "id");

    static FakeSynapse fake;
    static final String CONTAINER = "skippr-commit-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void start() throws Exception {
        fake = FakeSynapse.start();
        container().create();
    }

    @AfterAll
    static void stop() throws Exception {
        fake.close();
        container().deleteIfExists();
    }

    private static com.azure.storage.blob.BlobContainerClient container() {
        return new com.azure.storage.blob.BlobServiceClientBuilder()
                .endpoint(env("SKIPPR_TEST_AZURE_ENDPOINT"))
                .credential(
                        new com.azure.storage.common.StorageSharedKeyCredential(
                                env("SKIPPR_TEST_AZURE_ACCOUNT"), env("SKIPPR_TEST_AZURE_KEY")))
                .buildClient()
                .getBlobContainerClient(CONTAINER);
    }

    private static BlobStage stage() {
        return new BlobStage(
                env("SKIPPR_TEST_AZURE_ACCOUNT"),
                new Secret(env("SKIPPR_TEST_AZURE_KEY")),
                CONTAINER,
                env("SKIPPR_TEST_AZURE_ENDPOINT"));
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null) {
            throw new AssertionError(name + " is not set: run through scripts/test");
        }
        return value;
    }

    /**
     * Passes when a merge commit stopped at its COPY INTO (its staging table and target created
     * before the transaction, nothing of the transaction kept) is retried and lands the ten rows
     * once (count and sum exact), with one marker row and no staging table or staged file left, and
     * a replay is signalled as committed before.
     */
    @Test
    void aCommitStoppedAfterItsDdlLandsEachRowOnceWhenRetried() throws Exception {
        String schema = "skippr_syn_commit_" + Long.toHexString(System.nanoTime() >>> 8);
        StoppingDatabase db = new StoppingDatabase(database(), "08S01");
        SqlSinkSettings settings =
                SqlSinks.prepare(db.database(), "p", "pool", schema, false, WriteMode.MERGE);
        Collection<SqlCommittable> committables = stage(settings, rows(1, 10));
        db.stopAt(Pattern.compile("^COPY INTO "));
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(RecordedRequest.commit(committer, committables)).containsExactly("retry");
            assertThat(tables(schema))
                    .as("the DDL before the transaction stays")
                    .hasSize(3)
                    .contains("_skippr_commits", "orders");
            assertThat(count(schema)).isEqualTo("0/0");
            assertThat(RecordedRequest.commit(committer, committables))
                    .containsExactly("committed");
            assertThat(count(schema)).isEqualTo("10/550");
            assertThat(markers(schema)).isEqualTo(1);
            assertThat(tables(schema)).containsExactlyInAnyOrder("_skippr_commits", "orders");
            assertThat(stage().list("skippr-staging/")).isEmpty();
            assertThat(RecordedRequest.commit(committer, committables))
                    .containsExactly("already committed");
            assertThat(count(schema)).isEqualTo("10/550");
        }
    }

    static SynapseDatabase database() {
        return new SynapseDatabase(
                "127.0.0.1",
                fake.port(),
                FakeSynapse.DATABASE,
                fake.user(),
                new Secret(fake.password()),
                false,
                stage(),
                false);
    }

    private static Collection<SqlCommittable> stage(SqlSinkSettings settings, List<Row> rows)
            throws Exception {
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.of(0L), List.of())) {
            writer.write(new SchemaChange(ORDERS), null);
            for (Row row : rows) {
                writer.write(row, null);
            }
            return writer.prepareCommit();
        }
    }

    /** Rows {@code from..to} with amount {@code id * 10}. */
    private static List<Row> rows(long from, long to) {
        List<Row> rows = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            String position = "orders#" + id;
            rows.add(
                    new Row(
                            "orders",
                            ORDERS.version(),
                            Operation.INSERT,
                            new Object[] {id, (int) id * 10},
                            position,
                            SkipprId.of("orders", position),
                            1_700_000_000_000_000L));
        }
        return rows;
    }

    private static String count(String schema) throws Exception {
        try (Connection c = fake.backing();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*), coalesce(sum(amount), 0) FROM \""
                                        + schema
                                        + "\".\"orders\"")) {
            rs.next();
            return rs.getLong(1) + "/" + rs.getLong(2);
        }
    }

    private static long markers(String schema) throws Exception {
        try (Connection c = fake.backing();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*) FROM \"" + schema + "\".\"_skippr_commits\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> tables(String schema) throws Exception {
        try (Connection c = fake.backing();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT table_name FROM information_schema.tables WHERE"
                                        + " table_schema = '"
                                        + schema
                                        + "'")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
