package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Config;
import io.skippr.job.Session;
import io.skippr.job.TestPostgres;
import io.skippr.job.deadletters.DeadletterFilter;
import io.skippr.job.deadletters.Deadletters;
import io.skippr.job.deadletters.StoredDeadletter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code deadletters list} and {@code replay} (through the Java API, as {@code skipprd deadletters}
 * runs them) from each kind of deadletter sink that can be read back, beyond the PostgreSQL table
 * and local JSONL files {@code DeadlettersITCase} covers: a DuckDB table, an Iceberg table
 * (SkipprLake), files on S3 (CSV), Azure Blob (Parquet), GCS (JSONL) and SFTP (CSV), a ClickHouse
 * table, the tables of the warehouses (Redshift, Snowflake, Databricks, BigQuery, Synapse) and
 * Athena's Parquet files on S3 and AthenaIceberg's Iceberg table (Glue fake), against the servers
 * and fakes of the conformance kit. A CHECK constraint makes 5 of 1010 rows load-stage deadletters;
 * each is listed with its position and the server's words; after the constraint is dropped, a
 * replay loads exactly those 5, a second loads none, and the destination equals the source by md5.
 */
class DeadletterSinksReplayITCase {
    private static final String CHECKSUM =
            "SELECT count(*), count(DISTINCT id), sum(id), md5(string_agg(id || ':' || note, ','"
                    + " ORDER BY id)) FROM orders";

    @TempDir Path dir;
    private TestPostgres source;
    private TestPostgres out;
    private SinkFixture rejects;

    @BeforeEach
    void orders() throws Exception {
        source = new TestPostgres("skippr_dls_src_");
        out = new TestPostgres("skippr_dls_out_");
        source.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, note text NOT NULL)",
                "INSERT INTO orders SELECT i, 'n' || i FROM generate_series(1, 1005) i");
    }

    @AfterEach
    void drop() throws Exception {
        source.close();
        out.close();
        if (rejects != null) {
            rejects.close();
        }
    }

    private static SinkFixture fixture(String name) throws Exception {
        return switch (name) {
            case "DuckDB" -> new DuckDbFixture();
            case "SkipprLake" -> SkipprLakeFixture.embedded();
            case "S3 csv" -> new S3Fixture("csv");
            case "AzureBlob parquet" -> new AzureBlobFixture("parquet");
            case "GCS jsonl" -> new GcsFixture("jsonl");
            case "SFTP csv" -> new SftpFixture("csv");
            case "ClickHouse" -> new ClickHouseFixture();
            case "Redshift" -> new RedshiftFixture();
            case "Snowflake" -> new SnowflakeFixture();
            case "Databricks" -> new DatabricksFixture();
            case "BigQuery" -> new BigQueryFixture();
            case "Synapse" -> new SynapseFixture();
            case "Athena" -> new AthenaFixture();
            case "AthenaIceberg" -> new AthenaIcebergFixture();
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "DuckDB",
                "SkipprLake",
                "S3 csv",
                "AzureBlob parquet",
                "GCS jsonl",
                "SFTP csv",
                "ClickHouse",
                "Redshift",
                "Snowflake",
                "Databricks",
                "BigQuery",
                "Synapse",
                "Athena",
                "AthenaIceberg"
            })
    void fiveLoadDeadlettersAreListedAndReplayedExactlyOnce(String sink) throws Exception {
        rejects = fixture(sink);
        Path config = dir.resolve("skippr.yml");
        Files.writeString(
                config,
                "pipelines:\n  orders:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "    write_mode: append\n"
                        + "    deadletter_sink: deadletter_sinks.rejects\n"
                        + "data_sources:\n  app_db:\n"
                        + source.sourceYaml("orders", "id")
                        + "data_sinks:\n  warehouse:\n"
                        + TestPostgres.sinkYaml(out.schema)
                        + "deadletter_sinks:\n  rejects:\n"
                        // only data sinks link a schema sink (Athena's Glue)
                        + rejects.sinkYaml(dir).replaceAll("(?m)^    schema_sink: .*\n", ""));
        Map<String, String> env = new HashMap<>(TestPostgres.passwordEnv());
        env.putAll(rejects.env());
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        Session session = new Session(Config.load(config).getPipeline("orders"), env);

        session.sync(true);
        out.exec("ALTER TABLE orders ADD CONSTRAINT short_note CHECK (length(note) <= 10)");
        source.exec(
                "INSERT INTO orders SELECT i, 'a note too long ' || i FROM generate_series(1006,"
                        + " 1010) i");
        session.sync(true);
        assertThat(out.one("SELECT count(*) FROM orders")).containsExactly("1005");

        Deadletters deadletters = session.deadletters();
        List<StoredDeadletter> listed = deadletters.list(DeadletterFilter.PENDING).taken();
        assertThat(listed)
                .extracting(StoredDeadletter::originalPosition)
                .containsExactlyInAnyOrder(
                        "orders|id=1006|id=1006",
                        "orders|id=1007|id=1007",
                        "orders|id=1008|id=1008",
                        "orders|id=1009|id=1009",
                        "orders|id=1010|id=1010");
        assertThat(listed)
                .allSatisfy(
                        d -> {
                            assertThat(d.stage()).isEqualTo("load");
                            assertThat(d.errorMessage())
                                    .contains(
                                            "new row for relation \"orders\" violates check"
                                                    + " constraint \"short_note\"");
                        });

        out.exec("ALTER TABLE orders DROP CONSTRAINT short_note");
        Deadletters.Replay replay = deadletters.replay(DeadletterFilter.PENDING);
        assertThat(replay.replayed()).isEqualTo(5);
        assertThat(replay.loaded()).isEqualTo(5);
        assertThat(replay.failedAgain()).isZero();
        assertThat(out.one(CHECKSUM)).isEqualTo(source.one(CHECKSUM));
        assertThat(deadletters.replay(DeadletterFilter.PENDING).replayed())
                .as("a second replay")
                .isZero();
        assertThat(out.one(CHECKSUM)).isEqualTo(source.one(CHECKSUM));
        assertThat(deadletters.list(DeadletterFilter.PENDING).taken()).isEmpty();
    }
}
