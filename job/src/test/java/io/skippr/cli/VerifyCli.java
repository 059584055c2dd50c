package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import io.skippr.sinks.bigquery.BigQueryConnect;
import io.skippr.sinks.bigquery.BigQueryDatabase;
import io.skippr.sinks.bigquery.fake.FakeBigQuery;
import io.skippr.sinks.redshift.TestRedshift;
import io.skippr.sinks.snowflake.TestSnowflake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** {@code skipprd} runs of the verify tests, and the table of mixed types they compare. */
final class VerifyCli {
    /** The head of verify's table. */
    static final String HEADER =
            "stream  source rows  destination rows  missing  extra  duplicated  different"
                    + "  not yet synced\n";

    /** The table verify prints for the 3000 rows of {@link #mixedTable} loaded equal. */
    static final String MIXED_EQUAL =
            HEADER
                    + "mixed          3000              3000        0      0           0          0               0\n"
                    + "All 1 streams of pipeline mixed match.\n";

    /**
     * The table verify prints for them with key 10 deleted, 20 duplicated, 30 and 40 changed and
     * 100000 added.
     */
    static final String MIXED_BROKEN =
            HEADER
                    + "mixed          3000              3001        1      1           1          2               0\n"
                    + "mixed: missing keys: 10\n"
                    + "mixed: extra keys: 100000\n"
                    + "mixed: duplicated keys: 20\n"
                    + "mixed: different keys: 30, 40\n"
                    + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n";

    private VerifyCli() {}

    /**
     * The test PostgreSQL's password, the fake Snowflake's ({@code SF_PASSWORD}), and the state
     * folder in {@code dir}.
     */
    static Map<String, String> env(Path dir) {
        Map<String, String> env = new HashMap<>(TestPostgres.passwordEnv());
        env.put("SF_PASSWORD", TestSnowflake.PASSWORD);
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        return env;
    }

    static CliRun run(Path dir, String... args) {
        return CliRun.run(dir, env(dir), args);
    }

    /** {@code verify --config dir/skippr.yml --pipeline PIPELINE more…}. */
    static CliRun verify(Path dir, String pipeline, String... more) {
        String[] args = new String[more.length + 5];
        args[0] = "verify";
        args[1] = "--config";
        args[2] = dir.resolve("skippr.yml").toString();
        args[3] = "--pipeline";
        args[4] = pipeline;
        System.arraycopy(more, 0, args, 5, more.length);
        return run(dir, args);
    }

    /** A BigQuery data sink entry loading dataset {@code dataset} of project skippr-verify. */
    static String bigQuerySink(FakeBigQuery fake, String dataset) {
        return fake.sinkYaml("skippr-verify", dataset);
    }

    /** The connection the sink of {@link #bigQuerySink} makes: GoogleSQL as query jobs. */
    static java.sql.Connection bigQuery(FakeBigQuery fake, String dataset) throws IOException {
        return new BigQueryDatabase(
                        BigQueryConnect.of(
                                "skippr-verify",
                                dataset,
                                "US",
                                null,
                                fake.url(),
                                fake.writeEndpoint()))
                .connect();
    }

    /**
     * A Redshift data sink entry loading schema {@code schema} through {@code redshift}'s twin,
     * staging in its bucket, logging in with {@code ${PG_PASSWORD}} ({@link #env}).
     */
    static String redshiftSink(TestRedshift redshift, String schema) {
        return "    Redshift:\n      host: 127.0.0.1\n      port: "
                + redshift.twin.port()
                + "\n      user: "
                + TestRedshift.env("SKIPPR_TEST_PG_USER")
                + "\n      password: ${PG_PASSWORD}\n      database: "
                + TestRedshift.env("SKIPPR_TEST_PG_DATABASE")
                + "\n      schema: "
                + schema
                + "\n      ssl: false\n      s3_bucket: "
                + redshift.bucket
                + "\n      iam_role: arn:aws:iam::123456789012:role/skippr-twin\n      region: "
                + TestRedshift.env("SKIPPR_TEST_S3_REGION")
                + "\n      endpoint: "
                + TestRedshift.env("SKIPPR_TEST_S3_ENDPOINT")
                + "\n      path_style_access: true\n";
    }

    /**
     * A Snowflake data sink entry loading schema {@code schema} of {@code snowflake}'s fake
     * account, logging in with {@code ${SF_PASSWORD}} ({@link #env}).
     */
    static String snowflakeSink(TestSnowflake snowflake, String schema) {
        return snowflake.sinkYaml(schema, "SF_PASSWORD");
    }

    /** A connection to {@code snowflake}'s fake account through the official driver. */
    static Connection snowflake(TestSnowflake snowflake) throws SQLException {
        Properties p = snowflake.fake.properties(TestSnowflake.USER);
        p.setProperty("password", TestSnowflake.PASSWORD);
        return DriverManager.getConnection(snowflake.fake.url(), p);
    }

    /** {@code sync --config dir/skippr.yml --pipeline PIPELINE --once}. */
    static CliRun syncOnce(Path dir, String pipeline) {
        return run(
                dir,
                "sync",
                "--config",
                dir.resolve("skippr.yml").toString(),
                "--pipeline",
                pipeline,
                "--once");
    }

    /**
     * {@code dir/skippr.yml}: pipeline {@code shop} reading table {@code orders} of {@code pg}'s
     * schema by cursor column {@code cursor} into data sink {@code warehouse}, the entry {@code
     * sink}.
     */
    static void shopConfig(Path dir, TestPostgres pg, String cursor, String sink)
            throws IOException {
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n"
                        + "  shop:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("orders", cursor)
                        + "data_sinks:\n  warehouse:\n"
                        + sink);
    }

    /** A {@code sync --once} of pipeline {@code shop} that read {@code rows} rows. */
    static void syncShop(Path dir, int rows) {
        CliRun sync = syncOnce(dir, "shop");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err())
                .contains("Pipeline sync complete: 1 streams, " + rows + " records read");
    }

    /**
     * A table {@code mixed} of {@code rows} rows keyed by {@code id}, with a value of every type,
     * NULLs (id 1), -0, empty texts (2), NaN (3), infinities, unicode, a 39-digit decimal (4), the
     * largest real and {@code smallestDouble} (5).
     */
    static String[] mixedTable(int rows, String smallestDouble) {
        return new String[] {
            "CREATE TABLE mixed (id bigint PRIMARY KEY, amount numeric(12,2), any_number"
                    + " numeric, at timestamptz, local_at timestamp, day date, clock time,"
                    + " note text, payload bytea, doc json, tags jsonb, r real,"
                    + " f double precision, flag boolean, u uuid)",
            "INSERT INTO mixed SELECT g, g * 1.5, g / 7.0, TIMESTAMPTZ '2024-01-01"
                    + " 00:00:00.123456+02' + g * INTERVAL '1 minute 0.000001 second',"
                    + " TIMESTAMP '1999-12-31 23:59:59.999999' - g * INTERVAL '1 day',"
                    + " DATE '2000-02-29' + g, TIME '00:00:00.000001' + g * INTERVAL '1"
                    + " second', 'row ' || g, decode(md5(g::text), 'hex'),"
                    + " ('{\"b\": ' || g || ',  \"a\": [1, 2.50]}')::json,"
                    + " jsonb_build_object('g', g), g / 3.0, g / 3.0, g % 2 = 0,"
                    + " md5(g::text)::uuid FROM generate_series(1, "
                    + rows
                    + ") g",
            "UPDATE mixed SET amount = NULL, any_number = NULL, at = NULL, local_at = NULL,"
                    + " day = NULL, clock = NULL, note = NULL, payload = NULL, doc = NULL,"
                    + " tags = NULL, r = NULL, f = NULL, flag = NULL, u = NULL WHERE id = 1",
            "UPDATE mixed SET r = '-0', f = '-0', note = '', payload = '' WHERE id = 2",
            "UPDATE mixed SET r = 'NaN', f = 'NaN', any_number = 1.50000 WHERE id = 3",
            "UPDATE mixed SET r = 'Infinity', f = '-Infinity', note = 'ünïcödé 😀 中文 \t\n"
                    + " end', any_number = 123456789012345678901234567890.123456789 WHERE id"
                    + " = 4",
            "UPDATE mixed SET r = 3.4028235e38, f = " + smallestDouble + " WHERE id = 5"
        };
    }
}
