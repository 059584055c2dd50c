package io.skippr.sinks.postgres;

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
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.SqlSink;
import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.testing.ScriptedRows;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Hostile names are quoted and fitted, never executed; missing privileges are named as GRANTs. */
class PostgresNamesAndAccessITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    static final List<String> HOSTILE_COLUMNS =
            List.of(
                    "\"quoted\"",
                    "with space",
                    "select",
                    "ünïcödé 😀",
                    "Mixed Case",
                    "a;DROP TABLE x;--",
                    "_skippr_id",
                    "c".repeat(100),
                    "é".repeat(40));

    /** One row per stream: a hostile stream name and the hostile columns, all text. */
    static final class Hostile implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;

        @Override
        public StreamSchema schema(long i) {
            List<Column> columns = new ArrayList<>();
            for (String name : HOSTILE_COLUMNS) {
                columns.add(Column.of(name, DataType.STRING));
            }
            return new StreamSchema(
                    i % 2 == 0 ? "Order \"Items\" ü select 😀" : "x".repeat(100),
                    columns,
                    List.of());
        }

        @Override
        public Object[] values(long i) {
            Object[] values = new Object[HOSTILE_COLUMNS.size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = "'); DROP TABLE y; -- " + HOSTILE_COLUMNS.get(c) + " " + i;
            }
            return values;
        }
    }

    private TestPg pg;
    private final List<String> roles = new ArrayList<>();

    @BeforeEach
    void schema() {
        pg = new TestPg("raw \"x\" ü select " + Long.toHexString(System.nanoTime()));
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
        for (String role : roles) {
            TestPg.exec("DROP OWNED BY " + role, "DROP ROLE " + role);
        }
    }

    @Test
    void hostileSchemaStreamAndColumnNamesAreQuotedAndFitted() throws Exception {
        StreamExecutionEnvironment env = PostgresSinkITCase.env(RuntimeExecutionMode.BATCH, 0);
        ScriptedRows.stream(env, 4, 1_000_000, new Hostile(), -1, null)
                .sinkTo(new SqlSink(pg.prepare("p", true, WriteMode.APPEND)))
                .uid("p/sink/warehouse");
        env.execute("hostile names");

        SqlNames names = new SqlNames(63);
        String longTable = names.table("x".repeat(100));
        assertThat(longTable).startsWith("x".repeat(54) + "_").hasSize(63);
        assertThat(
                        TestPg.rows(
                                "SELECT table_name FROM information_schema.tables WHERE"
                                        + " table_schema = '"
                                        + pg.schema.replace("'", "''")
                                        + "' ORDER BY table_name"))
                .extracting(r -> r.get(0))
                .containsExactly(
                        "_skippr_commits", "_skippr_loads", "order_items_u_select", longTable);

        List<String> expected = new ArrayList<>();
        for (String column : HOSTILE_COLUMNS) {
            expected.add(names.column(column));
        }
        expected.addAll(List.of("_skippr_id", "_skippr_synced_at"));
        assertThat(expected)
                .contains("_skippr_id_source", "c".repeat(54) + expected.get(7).substring(54))
                .allSatisfy(
                        n ->
                                assertThat(n.getBytes(StandardCharsets.UTF_8).length)
                                        .isLessThanOrEqualTo(63));
        assertThat(expected.get(8)).startsWith("é".repeat(27) + "_");
        for (String table : List.of("order_items_u_select", longTable)) {
            assertThat(
                            TestPg.rows(
                                    "SELECT column_name FROM information_schema.columns WHERE"
                                            + " table_schema = '"
                                            + pg.schema.replace("'", "''")
                                            + "' AND table_name = '"
                                            + table
                                            + "' ORDER BY ordinal_position"))
                    .extracting(r -> r.get(0))
                    .containsExactlyElementsOf(expected);
            assertThat(
                            TestPg.one(
                                    "SELECT count(*), min("
                                            + TestPg.quote("with space")
                                            + ") FROM "
                                            + pg.table(table)))
                    .containsExactly(
                            "2",
                            "'); DROP TABLE y; -- with space " + (table.startsWith("x") ? 1 : 0));
        }
    }

    private String role(String password) throws Exception {
        String role = "skippr_np_" + Long.toHexString(System.nanoTime());
        TestPg.exec("CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
        roles.add(role);
        return role;
    }

    private SqlSinkSettings prepareAs(String role, String password) {
        return SqlSinks.prepare(
                TestPg.database(role, password),
                "p",
                "warehouse",
                pg.schema,
                false,
                WriteMode.APPEND);
    }

    @Test
    void aMissingPrivilegeIsNamedWithTheGrantThatCuresIt() throws Exception {
        String role = role("pw-1");
        String db = TestPg.env("SKIPPR_TEST_PG_DATABASE");
        String schema = TestPg.quote(pg.schema);

        assertThatThrownBy(() -> prepareAs(role, "pw-1"))
                .isInstanceOf(SqlSinkException.class)
                .hasMessageStartingWith(
                        "permission denied to create schema "
                                + schema
                                + ": GRANT CREATE ON DATABASE "
                                + db
                                + " TO "
                                + role);

        TestPg.exec("CREATE SCHEMA " + schema);
        assertThatThrownBy(() -> prepareAs(role, "pw-1"))
                .hasMessageStartingWith(
                        "permission denied to create tables in schema "
                                + schema
                                + ": GRANT USAGE, CREATE ON SCHEMA "
                                + schema
                                + " TO "
                                + role);

        TestPg.exec("GRANT USAGE, CREATE ON SCHEMA " + schema + " TO " + role);
        SqlSinkSettings settings = prepareAs(role, "pw-1");

        StreamSchema orders =
                new StreamSchema(
                        "orders",
                        List.of(
                                Column.of("id", DataType.INT64),
                                Column.of("note", DataType.STRING)),
                        List.of("id"));
        TestPg.exec(
                "CREATE TABLE " + pg.table("orders") + " (id bigint)",
                "GRANT ALL ON " + pg.table("orders") + " TO " + role);
        Collection<SqlCommittable> committables;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            writer.write(new SchemaChange(orders), null);
            writer.write(
                    new Row(
                            "orders",
                            orders.version(),
                            Operation.INSERT,
                            new Object[] {1L, "x"},
                            "orders#1",
                            SkipprId.of("orders", "orders#1"),
                            1L),
                    null);
            committables = writer.prepareCommit();
        }
        try (SqlCommitter committer = new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
            assertThatThrownBy(
                            () ->
                                    committer.commit(
                                            new ArrayList<>(
                                                    io.skippr.sinks.sql.RecordedRequest.of(
                                                            committables))))
                    .hasMessageContaining(
                            "must be owner of table orders: ALTER TABLE orders OWNER TO " + role);
        }
    }

    @Test
    void aWrongPasswordIsAClearErrorThatNeverShowsThePassword() throws Exception {
        String role = role("right-password");
        assertThatThrownBy(() -> prepareAs(role, "wrong-secret-password"))
                .isInstanceOf(SqlSinkException.class)
                .hasMessageContaining("cannot log in")
                .hasMessageContaining("password authentication failed for user \"" + role + "\"")
                .hasMessageContaining("user \"" + role + "\"")
                .hasMessageNotContaining("wrong-secret-password")
                .hasMessageNotContaining("right-password");
    }

    @Test
    void sslmodeAndSslrootcertAreHandedToTheDriver() throws Exception {
        assertThatThrownBy(
                        () ->
                                SqlSinks.prepare(
                                        tls("SKIPPR_TEST_PG_OTHER_CA"),
                                        "p",
                                        "w",
                                        pg.schema,
                                        true,
                                        WriteMode.APPEND))
                .isInstanceOf(SqlSinkException.class)
                .hasMessageContaining(
                        "The server's certificate is not signed by the CA in sslrootcert ("
                                + TestPg.env("SKIPPR_TEST_PG_OTHER_CA")
                                + ")")
                .hasMessageContaining("(sslmode verify-full)");
        try (java.sql.Connection c = tls("SKIPPR_TEST_PG_CA").connect();
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
            rs.next();
            org.assertj.core.api.Assertions.assertThat(rs.getBoolean(1)).isTrue();
        }
    }

    private static PostgresDatabase tls(String caVariable) {
        return new PostgresDatabase(
                TestPg.env("SKIPPR_TEST_PG_HOST"),
                Integer.parseInt(TestPg.env("SKIPPR_TEST_PG_PORT")),
                TestPg.env("SKIPPR_TEST_PG_DATABASE"),
                TestPg.env("SKIPPR_TEST_PG_USER"),
                new Secret(TestPg.env("SKIPPR_TEST_PG_PASSWORD")),
                "verify-full",
                TestPg.env(caVariable));
    }
}
