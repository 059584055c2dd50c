package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.cli.Skipprd;
import io.skippr.config.Config;
import io.skippr.config.EntryRef;
import io.skippr.config.Pipeline;
import io.skippr.config.connectors.DataSinkAthena;
import io.skippr.config.connectors.SchemaSinkGlue;
import io.skippr.config.testing.SpecExamples;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.glue.FakeGlueServer;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.s3.S3FileStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The destinations page's "Schema sinks" example, as written: the two {@code skipprd connect}
 * commands, and the Java equivalent of its Python, each on a starting file whose {@code app_db}
 * reads a table of the test PostgreSQL, write exactly the page's YAML. That YAML then runs, with
 * only the lines added that point it at the local servers instead of AWS ({@code s3_endpoint} and
 * {@code region} in the Athena entry, {@code glue_endpoint} and {@code region} in the Glue entry):
 * the rows land in Parquet files under {@code s3://acme-lake/bronze/orders/orders/dt=…/} on
 * S3Proxy, and the fake Glue server holds database {@code bronze}, table {@code orders} and its
 * partition.
 */
class SpecSchemaSinksExampleITCase {
    private static final String CHECKSUM =
            "SELECT count(*), count(DISTINCT id), sum(id), sum(amount), sum(customer_id) FROM ";

    @TempDir Path dir;
    private TestPostgres source;
    private FakeGlueServer glue;

    private static String s3env(String name) {
        return TestEnv.require(name, "the S3Proxy server that scripts/test starts");
    }

    private static S3Connection s3() {
        return S3Connection.of(
                        s3env("SKIPPR_TEST_S3_REGION"), s3env("SKIPPR_TEST_S3_ENDPOINT"), true)
                .withKeys(s3env("SKIPPR_TEST_S3_ACCESS_KEY"), s3env("SKIPPR_TEST_S3_SECRET_KEY"));
    }

    private static FileStore lake() {
        return new S3FileStore(s3(), "acme-lake", "bronze/orders");
    }

    @BeforeEach
    void serversAndStartingFile() throws Exception {
        glue = FakeGlueServer.start();
        try (S3Client client = s3().open()) {
            client.createBucket(b -> b.bucket("acme-lake"));
        } catch (S3Exception e) {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketAlreadyOwnedByYou");
        }
        try (FileStore store = lake()) {
            for (String key : store.list("")) {
                store.delete(key); // what an earlier run against this server left
            }
        }
        source = new TestPostgres();
        source.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int NOT NULL,"
                        + " amount numeric(12,2), status text, updated_at timestamptz NOT NULL)",
                "INSERT INTO orders SELECT i, i % 97, i * 1.25, CASE WHEN i % 3 = 0 THEN 'paid'"
                        + " ELSE 'new' END, timestamptz '2026-11-01 00:00:00Z' + i * interval"
                        + " '1 second' FROM generate_series(1, 3000) i");
        Files.writeString(file(), startingFile());
    }

    @AfterEach
    void stop() throws Exception {
        source.close();
        glue.close();
    }

    private Path file() {
        return dir.resolve("skippr.yml");
    }

    private String startingFile() {
        return "pipelines:\n  orders:\n    data_source: data_sources.app_db\n\n"
                + "data_sources:\n  app_db:\n"
                + source.sourceYaml("orders", "updated_at")
                        .replace("${PG_PASSWORD}", "${APP_DB_PASSWORD}");
    }

    private Map<String, String> env() {
        return Map.of(
                "APP_DB_PASSWORD", TestPostgres.env("SKIPPR_TEST_PG_PASSWORD"),
                "SKIPPR_STATE_DIR", dir.resolve("state").toString());
    }

    private record Run(int code, String out, String err) {}

    private Run skipprd(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                Skipprd.run(
                        args, dir, env(), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** The page's YAML block, applied to this test's starting file. */
    private Map<String, Object> pagesYaml() {
        return SpecExamples.merge(
                SpecExamples.parse(startingFile()),
                SpecExamples.parse(SpecExamples.text(SpecExamples.SCHEMA_SINKS)));
    }

    /** Adds the lines that point the saved file at S3Proxy and the fake Glue, and only those. */
    private void pointAtLocalServers() throws Exception {
        String saved = Files.readString(file());
        String region = s3env("SKIPPR_TEST_S3_REGION");
        String athena = "    Athena:\n";
        String glueEntry = "    Glue:\n";
        assertThat(saved).containsOnlyOnce(athena).containsOnlyOnce(glueEntry);
        String pointed =
                saved.replace(
                                athena,
                                athena
                                        + "      s3_endpoint: "
                                        + s3env("SKIPPR_TEST_S3_ENDPOINT")
                                        + "\n      region: "
                                        + region
                                        + "\n")
                        .replace(
                                glueEntry,
                                glueEntry
                                        + "      glue_endpoint: "
                                        + glue.endpoint()
                                        + "\n      region: "
                                        + region
                                        + "\n");
        Files.writeString(file(), pointed);
        assertThat(pointed.lines().count()).isEqualTo(saved.lines().count() + 4);
    }

    @Test
    void theTwoConnectCommandsWriteThePagesYamlAndSkipprdSyncRunsIt() throws Exception {
        Run athena =
                skipprd(
                        "connect",
                        "data-sink",
                        "athena",
                        "--pipeline",
                        "orders",
                        "--name",
                        "lake",
                        "--s3-bucket",
                        "acme-lake",
                        "--s3-prefix",
                        "bronze/orders",
                        "--athena-workgroup-name",
                        "primary",
                        "--athena-results-s3-bucket",
                        "acme-athena-results");
        assertThat(athena.code()).as(athena.out() + athena.err()).isZero();
        Run glueRun =
                skipprd(
                        "connect",
                        "schema-sink",
                        "glue",
                        "--pipeline",
                        "orders",
                        "--name",
                        "glue",
                        "--s3-bucket",
                        "acme-lake",
                        "--s3-prefix",
                        "bronze/orders",
                        "--athena-workgroup-name",
                        "primary",
                        "--athena-results-s3-bucket",
                        "acme-athena-results",
                        "--glue-database-name",
                        "bronze");
        assertThat(glueRun.code()).as(glueRun.out() + glueRun.err()).isZero();
        assertThat(SpecExamples.parse(Files.readString(file()))).isEqualTo(pagesYaml());

        pointAtLocalServers();
        Run sync = skipprd("sync", "--pipeline", "orders", "--once");
        assertThat(sync.code()).as(sync.out() + sync.err()).isZero();
        assertThat(sync.err()).contains("Pipeline sync complete: 1 streams, 3000 records read");

        assertLanded();
    }

    @Test
    void theJavaExampleWritesThePagesYamlAndASessionRunsIt() throws Exception {
        Config cfg = Config.load(file().toString());
        EntryRef glueRef =
                cfg.schemaSink(
                        "glue",
                        new SchemaSinkGlue()
                                .s3Bucket("acme-lake")
                                .s3Prefix("bronze/orders")
                                .athenaWorkgroupName("primary")
                                .athenaResultsS3Bucket("acme-athena-results")
                                .glueDatabaseName("bronze"));
        EntryRef lakeRef =
                cfg.dataSink(
                        "lake",
                        new DataSinkAthena()
                                .s3Bucket("acme-lake")
                                .s3Prefix("bronze/orders")
                                .athenaWorkgroupName("primary")
                                .athenaResultsS3Bucket("acme-athena-results"),
                        glueRef);
        cfg.pipeline("orders", new Pipeline(cfg.getDataSource("app_db"), lakeRef));
        cfg.save();
        assertThat(SpecExamples.parse(Files.readString(file()))).isEqualTo(pagesYaml());

        pointAtLocalServers();
        Map<String, Map<String, Long>> counters =
                new Session(Config.load(file()).getPipeline("orders"), env()).sync(true);
        assertThat(counters.get("orders")).containsEntry("written", 3000L);

        assertLanded();
    }

    private void assertLanded() throws Exception {
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        List<String> local = new ArrayList<>();
        try (FileStore store = lake()) {
            for (String key : new CommitLog(store).committedKeys()) {
                assertThat(key)
                        .matches(
                                "orders/dt=\\d{4}-\\d{2}-\\d{2}/orders-\\d{6}-\\d{3}-\\d{6}-\\d{6}\\.parquet");
                Path copy = dir.resolve("f" + local.size() + ".parquet");
                store.download(key, copy);
                local.add("'" + copy + "'");
            }
        }
        assertThat(local).isNotEmpty();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(CHECKSUM + "read_parquet(" + local + ")")) {
            rs.next();
            List<String> landed = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                landed.add(
                        new java.math.BigDecimal(rs.getString(i))
                                .stripTrailingZeros()
                                .toPlainString());
            }
            assertThat(landed).isEqualTo(sourceChecksum());
        }

        assertThat(glue.databases()).containsExactly("bronze");
        assertThat(glue.tables("bronze")).containsExactly("orders");
        JsonNode table = glue.table("bronze", "orders").orElseThrow();
        Map<String, String> columns = new LinkedHashMap<>();
        table.path("StorageDescriptor")
                .path("Columns")
                .forEach(c -> columns.put(c.path("Name").asText(), c.path("Type").asText()));
        assertThat(columns)
                .containsExactly(
                        Map.entry("id", "bigint"),
                        Map.entry("customer_id", "int"),
                        Map.entry("amount", "decimal(12,2)"),
                        Map.entry("status", "string"),
                        Map.entry("updated_at", "timestamp"),
                        Map.entry("_skippr_id", "string"),
                        Map.entry("_skippr_synced_at", "timestamp"));
        assertThat(table.path("StorageDescriptor").path("Location").asText())
                .isEqualTo("s3://acme-lake/bronze/orders/orders/");
        assertThat(glue.partitions("bronze", "orders"))
                .isNotEmpty()
                .allSatisfy(
                        p ->
                                assertThat(p.get(0))
                                        .isIn(
                                                today,
                                                LocalDate.parse(today).minusDays(1).toString()));
    }

    private List<String> sourceChecksum() throws Exception {
        try (Connection c = source.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(CHECKSUM + "\"" + source.schema + "\".orders")) {
            rs.next();
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                row.add(
                        new java.math.BigDecimal(rs.getString(i))
                                .stripTrailingZeros()
                                .toPlainString());
            }
            return row;
        }
    }
}
