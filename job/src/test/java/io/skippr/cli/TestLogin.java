package io.skippr.cli;

import io.skippr.job.TestPostgres;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A login role of its own, with a random password, on the test PostgreSQL, beside a new schema: for
 * tests that must find that password nowhere Skippr writes. Closing drops the schema, the {@code
 * <schema>_out} schema a sink may have created, and the role.
 */
final class TestLogin implements AutoCloseable {
    final TestPostgres pg;
    final String role;
    final String password;

    TestLogin(String schemaPrefix) throws SQLException {
        this(schemaPrefix, "");
    }

    /**
     * @param passwordTail appended to the random password, such as {@code "/+ &="}: characters
     *     whose URL-encoding differs from the text
     */
    TestLogin(String schemaPrefix, String passwordTail) throws SQLException {
        pg = new TestPostgres(schemaPrefix);
        role = pg.schema + "_login";
        password =
                "Pw-"
                        + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong())
                        + passwordTail;
        pg.exec("CREATE ROLE \"" + role + "\" LOGIN SUPERUSER PASSWORD '" + password + "'");
    }

    /**
     * The connection fields of a Postgres entry logging in as this role, the password read from
     * {@code ${LOGIN_PASSWORD}}, followed by {@code tls}, lines such as {@code sslmode: disable}.
     */
    String yaml(String tls) {
        return "      host: "
                + TestPostgres.env("SKIPPR_TEST_PG_HOST")
                + "\n      port: "
                + TestPostgres.env("SKIPPR_TEST_PG_PORT")
                + "\n      user: "
                + role
                + "\n      password: ${LOGIN_PASSWORD}\n      database: "
                + TestPostgres.env("SKIPPR_TEST_PG_DATABASE")
                + "\n"
                + tls;
    }

    @Override
    public void close() throws SQLException {
        pg.exec("DROP SCHEMA IF EXISTS \"" + pg.schema + "_out\" CASCADE");
        pg.close();
        pg.exec("DROP ROLE \"" + role + "\"");
    }
}
