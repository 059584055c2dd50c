package io.skippr.sinks.synapse;

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
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.Staging;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.synapse.fake.FakeSynapse;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.flink.api.connector.sink2.Committer;
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
                env("SKIPPR_TEST_AZURE_KEY"),
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
        Stopping db = new Stopping(database());
        SqlSinkSettings settings =
                SqlSinks.prepare(db, "p", "pool", schema, false, WriteMode.MERGE);
        Collection<SqlCommittable> committables = stage(settings, rows(1, 10));
        Stopping.STOP.put(db.id, Pattern.compile("^COPY INTO "));
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThat(commit(committer, committables)).containsExactly("retry");
            assertThat(tables(schema))
                    .as("the DDL before the transaction stays")
                    .hasSize(3)
                    .contains("_skippr_commits", "orders");
            assertThat(count(schema)).isEqualTo("0/0");
            assertThat(commit(committer, committables)).containsExactly("committed");
            assertThat(count(schema)).isEqualTo("10/550");
            assertThat(markers(schema)).isEqualTo(1);
            assertThat(tables(schema)).containsExactlyInAnyOrder("_skippr_commits", "orders");
            assertThat(stage().list("skippr-staging/")).isEmpty();
            assertThat(commit(committer, committables)).containsExactly("already committed");
            assertThat(count(schema)).isEqualTo("10/550");
        }
    }

    static SynapseDatabase database() {
        return new SynapseDatabase(
                "127.0.0.1",
                fake.port(),
                FakeSynapse.DATABASE,
                fake.user(),
                fake.password(),
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

    private static List<String> commit(SqlCommitter committer, Collection<SqlCommittable> all)
            throws Exception {
        List<Request> requests = all.stream().map(Request::new).toList();
        committer.commit(new ArrayList<>(requests));
        return requests.stream().map(r -> r.signal).distinct().toList();
    }

    /** A commit request that records what the committer signalled. */
    static final class Request implements Committer.CommitRequest<SqlCommittable> {
        final SqlCommittable committable;
        String signal = "committed";

        Request(SqlCommittable committable) {
            this.committable = committable;
        }

        @Override
        public SqlCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            signal = "failed: " + t.getMessage();
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            throw new IllegalStateException(t);
        }

        @Override
        public void retryLater() {
            signal = "retry";
        }

        @Override
        public void updateAndRetryLater(SqlCommittable committable) {
            signal = "retry";
        }

        @Override
        public void signalAlreadyCommitted() {
            signal = "already committed";
        }
    }

    /**
     * The Synapse database, whose connections fail once, as a lost connection (SQL state 08S01), at
     * the first statement matching the pattern set for it: nothing of it runs.
     */
    record Stopping(SynapseDatabase inner, int id) implements SqlDatabase {
        static final ConcurrentHashMap<Integer, Pattern> STOP = new ConcurrentHashMap<>();
        private static final AtomicInteger IDS = new AtomicInteger();

        Stopping(SynapseDatabase inner) {
            this(inner, IDS.incrementAndGet());
        }

        @Override
        public SynapseDialect dialect() {
            return inner.dialect();
        }

        @Override
        public Staging staging() {
            return inner.staging();
        }

        @Override
        public Connection connect() throws IOException {
            Connection c = inner.connect();
            return (Connection)
                    Proxy.newProxyInstance(
                            getClass().getClassLoader(),
                            new Class<?>[] {Connection.class},
                            (self, m, args) -> {
                                Object out = invoke(c, m, args);
                                if (out instanceof Statement st) {
                                    boolean prepared = m.getName().equals("prepareStatement");
                                    String sql = prepared ? (String) args[0] : null;
                                    return Proxy.newProxyInstance(
                                            getClass().getClassLoader(),
                                            new Class<?>[] {
                                                prepared
                                                        ? java.sql.PreparedStatement.class
                                                        : Statement.class
                                            },
                                            (s2, m2, a2) -> {
                                                if (m2.getName().startsWith("execute")) {
                                                    String text =
                                                            sql != null ? sql : (String) a2[0];
                                                    Pattern p = STOP.get(id);
                                                    if (p != null && p.matcher(text).find()) {
                                                        STOP.remove(id);
                                                        throw new SQLException(
                                                                "injected stop", "08S01");
                                                    }
                                                }
                                                return invoke(st, m2, a2);
                                            });
                                }
                                return out;
                            });
        }

        private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args)
                throws Throwable {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @Override
        public StagingLoader loader(Connection connection) {
            return inner.loader(connection);
        }

        @Override
        public void checkAccess(Connection connection, String schema) throws IOException {
            inner.checkAccess(connection, schema);
        }

        @Override
        public IOException failure(String doing, SQLException e) {
            return inner.failure(doing, e);
        }

        @Override
        public boolean retriable(SQLException e) {
            return inner.retriable(e);
        }

        @Override
        public String describe() {
            return inner.describe();
        }
    }
}
