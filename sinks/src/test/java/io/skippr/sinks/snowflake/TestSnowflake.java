package io.skippr.sinks.snowflake;

import io.skippr.sinks.snowflake.fake.FakeSnowflake;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A fake Snowflake account ({@link FakeSnowflake}) on the test PostgreSQL and S3Proxy of {@code
 * scripts/test} ({@code SKIPPR_TEST_PG_*}, {@code SKIPPR_TEST_S3_*}), with one password user.
 * Without those servers the tests fail, never skip.
 */
public final class TestSnowflake implements AutoCloseable {
    public static final String USER = "skippr_loader";
    public static final String PASSWORD = "fake-snowflake-pw";

    public final FakeSnowflake fake;

    public TestSnowflake() throws Exception {
        fake = FakeSnowflake.start().addUser(USER, PASSWORD);
    }

    /** The account's URL, as the sink's endpoint field takes it. */
    /**
     * A Snowflake data sink entry loading {@code schema} of this fake account, logging in with the
     * password in {@code ${passwordVariable}}.
     */
    public String sinkYaml(String schema, String passwordVariable) {
        return "    Snowflake:\n      account: "
                + FakeSnowflake.ACCOUNT
                + "\n      endpoint: "
                + endpoint()
                + "\n      user: "
                + USER
                + "\n      password: ${"
                + passwordVariable
                + "}\n      database: "
                + FakeSnowflake.DATABASE
                + "\n      schema: "
                + schema
                + "\n      warehouse: FAKE_WH\n";
    }

    public String endpoint() {
        return fake.url().replace("jdbc:snowflake://", "http://").replace("/?ssl=off", "");
    }

    /** The PostgreSQL database behind the fake, where rows can be read with their own types. */
    public Connection backing() throws SQLException {
        return fake.backing();
    }

    @Override
    public void close() throws Exception {
        fake.close();
    }
}
