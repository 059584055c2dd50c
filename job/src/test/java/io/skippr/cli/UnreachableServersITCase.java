package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A source or sink whose server refuses connections (127.0.0.1, port 1, where nothing listens):
 * {@code skipprd sync --once} fails with exit code 1 and one error line that names the server and
 * says it could not be reached, never a bare exception name.
 */
class UnreachableServersITCase {
    private static final String LOGIN =
            "      host: 127.0.0.1\n      port: 1\n      user: u\n      password: pw\n";

    @TempDir Path dir;

    record Case(String name, String source, String sink, String error) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String FILES = "    LocalFile:\n      path: data.csv\n";

    static Stream<Case> cases() {
        return Stream.of(
                new Case(
                        "a PostgreSQL source",
                        "    Postgres:\n" + LOGIN + "      database: db\n",
                        null,
                        "error: PostgresSourceException: Could not connect to PostgreSQL at"
                                + " 127.0.0.1:1, database \"db\", user \"u\" (sslmode prefer):"
                                + " Connection to 127.0.0.1:1 refused."),
                new Case(
                        "a PostgreSQL sink",
                        FILES,
                        "    Postgres:\n" + LOGIN + "      database: db\n",
                        "error: SqlSinkException: cannot connect: Connection to 127.0.0.1:1"
                                + " refused."),
                new Case(
                        "a ClickHouse sink",
                        FILES,
                        "    ClickHouse:\n" + LOGIN + "      database: db\n",
                        "error: ClickHouseException: Cannot reach ClickHouse at"
                                + " http://127.0.0.1:1 as user 'u'"),
                new Case(
                        "an AMQP sink",
                        FILES,
                        "    AMQP:\n" + LOGIN,
                        "error: AmqpException: Cannot reach the broker at amqp://127.0.0.1:1"
                                + " (virtual host '/', user 'u'): java.net.ConnectException:"
                                + " Connection refused"),
                new Case(
                        "an S3 sink",
                        FILES,
                        "    S3:\n      s3_bucket: b\n      endpoint: http://127.0.0.1:1\n"
                                + "      path_style_access: true\n      region: us-east-1\n",
                        "error: FileSinkException: cannot read the commit log in s3://b/ at"
                                + " http://127.0.0.1:1: listing s3://b/_skippr/commits/ failed: S3 at"
                                + " http://127.0.0.1:1 could not be reached"),
                new Case(
                        "an SFTP sink",
                        FILES,
                        "    SFTP:\n" + LOGIN + "      path: /x\n",
                        "error: FileSinkException: cannot read the commit log in"
                                + " sftp://u@127.0.0.1:1/x: cannot reach SFTP server 127.0.0.1:1:"
                                + " connection refused"),
                new Case(
                        "an Azure Blob sink",
                        FILES,
                        "    AzureBlob:\n      account_name: acct\n      account_key: a2V5\n"
                                + "      container: c\n      endpoint: http://127.0.0.1:1/acct\n",
                        "error: FileSinkException: cannot read the commit log in"
                                + " http://127.0.0.1:1/acct/c: cannot list blobs under"
                                + " '_skippr/commits/' in container 'c' of account 'acct' at"
                                + " http://127.0.0.1:1/acct"),
                new Case(
                        "a GCS sink",
                        FILES,
                        "    GCS:\n      bucket: b\n      endpoint: http://127.0.0.1:1\n",
                        "error: FileSinkException: cannot read the commit log in gs://b: GCS:"
                                + " cannot list gs://b/_skippr/commits/*: cannot reach Google Cloud"
                                + " Storage at http://127.0.0.1:1: Connection refused"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void failsNamingTheServer(Case c) throws Exception {
        Files.writeString(dir.resolve("data.csv"), "id,name\n1,a\n");
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  p:\n    data_source: data_sources.src\n"
                        + (c.sink() == null ? "" : "    data_sink: data_sinks.dst\n")
                        + "data_sources:\n  src:\n"
                        + c.source()
                        + (c.sink() == null ? "" : "data_sinks:\n  dst:\n" + c.sink()));

        CliRun run = CliRun.syncOnce(dir, dir.resolve("skippr.yml"), "p");

        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        assertThat(run.err()).contains(c.error());
    }
}
