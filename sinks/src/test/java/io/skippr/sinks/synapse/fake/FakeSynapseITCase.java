package io.skippr.sinks.synapse.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The official driver ({@code mssql-jdbc}) against {@link FakeSynapse}, as the Synapse sink uses
 * it: a SQL login, DDL in auto-commit, a transaction committed and one rolled back (setAutoCommit,
 * commit and rollback as the driver sends them), sp_executesql with string, long, int and boolean
 * parameters, typed results, a 100-character name, and the refusals: a wrong password, DDL inside a
 * transaction, PostgreSQL's syntax, an invalid object. Needs the test PostgreSQL.
 */
class FakeSynapseITCase {
    private static FakeSynapse fake;

    @BeforeAll
    static void start() throws Exception {
        fake = FakeSynapse.start();
    }

    @AfterAll
    static void stop() throws Exception {
        fake.close();
    }

    private static Connection connect(String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", fake.user());
        p.setProperty("password", password);
        p.setProperty("databaseName", FakeSynapse.DATABASE);
        p.setProperty("encrypt", "false");
        return new com.microsoft.sqlserver.jdbc.SQLServerDriver()
                .connect("jdbc:sqlserver://127.0.0.1:" + fake.port(), p);
    }

    @Test
    void rowsCommitOrRollBackAndReadBackTyped() throws Exception {
        try (Connection c = connect(fake.password());
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"t1\"");
            st.execute(
                    "CREATE TABLE \"t1\".\"m\" (\"id\" BIGINT, \"n\" INT, \"ok\" BIT,"
                            + " \"s\" NVARCHAR(4000), \"j\" NVARCHAR(MAX), \"d\" DECIMAL(10,2))"
                            + " WITH (DISTRIBUTION = ROUND_ROBIN, CLUSTERED COLUMNSTORE INDEX)");
            c.setAutoCommit(false);
            try (PreparedStatement ins =
                    c.prepareStatement(
                            "INSERT INTO \"t1\".\"m\" (\"id\", \"n\", \"ok\", \"s\", \"j\", \"d\")"
                                    + " VALUES (?, ?, ?, ?, ?, 12.50)")) {
                ins.setLong(1, 1L << 40);
                ins.setInt(2, 7);
                ins.setBoolean(3, true);
                ins.setString(4, "ünï 'q'");
                ins.setString(5, "x".repeat(5000));
                assertThat(ins.executeUpdate()).isEqualTo(1);
            }
            c.commit();
            st.execute("INSERT INTO \"t1\".\"m\" (\"id\") VALUES (2)");
            c.rollback();
            c.setAutoCommit(true);
            try (PreparedStatement q =
                    c.prepareStatement(
                            "SELECT \"id\", \"n\", \"ok\", \"s\", \"j\", \"d\" FROM \"t1\".\"m\""
                                    + " WHERE \"ok\" = ?")) {
                q.setBoolean(1, true);
                try (ResultSet rs = q.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(1L << 40);
                    assertThat(rs.getInt(2)).isEqualTo(7);
                    assertThat(rs.getBoolean(3)).isTrue();
                    assertThat(rs.getString(4)).isEqualTo("ünï 'q'");
                    assertThat(rs.getString(5)).hasSize(5000);
                    assertThat(rs.getString(6)).isEqualTo("12.50");
                    assertThat(rs.next()).isFalse();
                }
            }
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH,"
                                    + " NUMERIC_PRECISION FROM INFORMATION_SCHEMA.COLUMNS WHERE"
                                    + " TABLE_SCHEMA = N't1' AND TABLE_NAME = N'm' ORDER BY"
                                    + " ORDINAL_POSITION")) {
                StringBuilder types = new StringBuilder();
                while (rs.next()) {
                    types.append(rs.getString(1))
                            .append(' ')
                            .append(rs.getString(2))
                            .append(' ')
                            .append(rs.getObject(3))
                            .append(' ')
                            .append(rs.getObject(4))
                            .append(';');
                }
                assertThat(types.toString())
                        .isEqualTo(
                                "id bigint null null;n int null null;ok bit null null;"
                                        + "s nvarchar 4000 null;j nvarchar -1 null;"
                                        + "d decimal null 10;");
            }
            String createIfMissing =
                    "IF OBJECT_ID(N'\"t1\".\"h\"', N'U') IS NULL CREATE TABLE \"t1\".\"h\""
                            + " (\"a\" INT) WITH (DISTRIBUTION = ROUND_ROBIN, HEAP)";
            st.execute(createIfMissing);
            st.execute("INSERT INTO \"t1\".\"h\" VALUES (1)");
            st.execute(createIfMissing);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM \"t1\".\"h\"")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1))
                        .as("the second CREATE left the table as it was")
                        .isEqualTo(1);
            }
            st.execute("IF OBJECT_ID(N'\"t1\".\"m\"', N'U') IS NOT NULL DROP TABLE \"t1\".\"m\"");
            st.execute("IF OBJECT_ID(N'\"t1\".\"m\"', N'U') IS NOT NULL DROP TABLE \"t1\".\"m\"");
            assertThat(fake.exists("t1", "m")).isFalse();
        }
    }

    @Test
    void aHundredCharacterNameIsKeptWhole() throws Exception {
        String table = "t".repeat(100);
        try (Connection c = connect(fake.password());
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"t2\"");
            st.execute("CREATE TABLE \"t2\".\"" + table + "\" (\"" + table + "\" INT)");
            st.execute("INSERT INTO \"t2\".\"" + table + "\" VALUES (5)");
            try (ResultSet rs = st.executeQuery("SELECT * FROM \"t2\".\"" + table + "\"")) {
                assertThat(rs.getMetaData().getColumnName(1)).isEqualTo(table);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(5);
            }
        }
    }

    @Test
    void refusesWhatSynapseRefuses() throws Exception {
        assertThatThrownBy(() -> connect("wrong"))
                .isInstanceOfSatisfying(
                        SQLException.class,
                        e -> {
                            assertThat(e.getErrorCode()).isEqualTo(18456);
                            assertThat(e.getMessage())
                                    .startsWith(
                                            "Login failed for user 'skippr_loader'."
                                                    + " ClientConnectionId:");
                        });
        try (Connection c = connect(fake.password());
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"t3\"");
            c.setAutoCommit(false);
            assertThatThrownBy(() -> st.execute("CREATE TABLE \"t3\".\"x\" (\"a\" INT)"))
                    .isInstanceOfSatisfying(
                            SQLException.class,
                            e -> {
                                assertThat(e.getErrorCode()).isEqualTo(574);
                                assertThat(e.getMessage())
                                        .isEqualTo(
                                                "CREATE TABLE statement cannot be used inside a"
                                                        + " user transaction.");
                            });
            c.rollback();
            c.setAutoCommit(true);
            assertThatThrownBy(() -> st.execute("DROP TABLE IF EXISTS \"t3\".\"x\""))
                    .hasMessage("Incorrect syntax near the keyword 'IF'.");
            assertThatThrownBy(
                            () ->
                                    st.executeQuery(
                                            "SELECT 1 FROM \"t3\".\"x\" ORDER BY 1 DESC NULLS LAST"))
                    .hasMessage("Incorrect syntax near 'NULLS'.");
            assertThatThrownBy(() -> st.execute("ALTER TABLE \"t3\".\"x\" ADD COLUMN \"b\" INT"))
                    .hasMessage("Incorrect syntax near the keyword 'COLUMN'.");
            assertThatThrownBy(() -> st.executeQuery("SELECT * FROM \"t3\".\"nope\""))
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(208));
            assertThatThrownBy(() -> st.execute("MERGE INTO \"t3\".\"x\" USING y ON 1 = 1"))
                    .hasMessage("The fake Synapse does not implement the statement MERGE.");
        }
    }
}
