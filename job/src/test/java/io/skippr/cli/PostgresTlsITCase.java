package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL as source and sink with {@code sslmode: verify-full} against the test server, whose
 * certificate a throwaway CA signed ({@code scripts/lib/postgres.sh}): the run succeeds with that
 * CA as {@code sslrootcert} and fails clearly with an unrelated one. The login's password is a
 * random value that must appear nowhere Skippr writes: its output, its log file, its state folder,
 * skippr.yml.
 */
class PostgresTlsITCase {
    @TempDir Path dir;

    private TestLogin login;

    @BeforeEach
    void setUp() throws SQLException {
        login = new TestLogin("skippr_tls_");
        login.pg.exec(
                "CREATE TABLE orders (id int PRIMARY KEY, amount numeric(12,2) NOT NULL)",
                "INSERT INTO orders SELECT g, g * 1.25 FROM generate_series(1, 500) g");
    }

    @AfterEach
    void tearDown() throws SQLException {
        login.close();
    }

    private String connection() {
        return login.yaml("      sslmode: verify-full\n      sslrootcert: ${PG_CA}\n");
    }

    private Path config() throws IOException {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                "pipelines:\n  orders:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n    Postgres:\n"
                        + connection()
                        + "      schema: "
                        + login.pg.schema
                        + "\n      tables: [orders]\n"
                        + "data_sinks:\n  warehouse:\n    Postgres:\n"
                        + connection()
                        + "      schema: "
                        + login.pg.schema
                        + "_out\n");
        return file;
    }

    private CliRun sync(String ca) throws IOException {
        Map<String, String> env =
                Map.of(
                        "LOGIN_PASSWORD", login.password,
                        "PG_CA", TestPostgres.env(ca),
                        "SKIPPR_STATE_DIR", dir.resolve("state").toString());
        return CliRun.run(
                dir,
                env,
                "sync",
                "--config",
                config().toString(),
                "--pipeline",
                "orders",
                "--once",
                "--log");
    }

    @Test
    void verifyFullWithTheServersCaLoadsEveryRow() throws Exception {
        CliRun run = sync("SKIPPR_TEST_PG_CA");

        assertThat(run.exitCode()).as(run.all()).isZero();
        try (Connection c = login.pg.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*), sum(id), sum(amount) FROM \""
                                        + login.pg.schema
                                        + "_out\".orders")) {
            rs.next();
            assertThat(List.of(rs.getLong(1), rs.getLong(2), rs.getBigDecimal(3).toPlainString()))
                    .containsExactly(500L, 125250L, "156562.50");
        }
        assertNoPasswordIn(run);
    }

    @Test
    void verifyFullWithAnotherCaFailsNamingTheServerAndTheCheck() throws Exception {
        CliRun run = sync("SKIPPR_TEST_PG_OTHER_CA");

        assertThat(run.exitCode()).as(run.all()).isNotZero();
        assertThat(run.err())
                .contains(
                        "PostgreSQL at "
                                + TestPostgres.env("SKIPPR_TEST_PG_HOST")
                                + ":"
                                + TestPostgres.env("SKIPPR_TEST_PG_PORT")
                                + ", database \""
                                + TestPostgres.env("SKIPPR_TEST_PG_DATABASE")
                                + "\", user \""
                                + login.role
                                + "\" (sslmode verify-full)")
                .contains(
                        "The server's certificate is not signed by the CA in sslrootcert ("
                                + TestPostgres.env("SKIPPR_TEST_PG_OTHER_CA")
                                + ")");
        assertNoPasswordIn(run);
    }

    private void assertNoPasswordIn(CliRun run) throws IOException {
        assertThat(run.all()).doesNotContain(login.password);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                byte[] bytes = Files.readAllBytes(file);
                assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                        .as("%s holds the password", file)
                        .doesNotContain(login.password);
            }
        }
    }
}
