package io.skippr.cli;

import static io.skippr.config.testing.SpecExamples.ADD_DESTINATION;
import static io.skippr.config.testing.SpecExamples.SCHEMA_SINKS;
import static io.skippr.config.testing.SpecExamples.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.testing.SpecExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every skipprd command of the destinations page, run on its starting file, writes its YAML. */
class SpecCommandsTest {
    @TempDir Path dir;

    @BeforeEach
    void startingFile() throws IOException {
        Files.writeString(dir.resolve("skippr.yml"), SpecExamples.text(START));
    }

    private Map<String, Object> saved() throws IOException {
        return SpecExamples.parse(Files.readString(dir.resolve("skippr.yml")));
    }

    @Test
    void connectDataSinkPostgres() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "postgres",
                        "--pipeline",
                        "orders",
                        "--name",
                        "warehouse",
                        "--host",
                        "warehouse.internal",
                        "--user",
                        "skippr_loader",
                        "--password",
                        "${WAREHOUSE_PASSWORD}",
                        "--database",
                        "analytics",
                        "--schema",
                        "raw");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out())
                .isEqualTo(
                        "Wrote data_sinks.warehouse (Postgres) as the data sink of pipeline"
                                + " 'orders' in "
                                + dir.resolve("skippr.yml")
                                + "\n");
        assertThat(saved()).isEqualTo(SpecExamples.expected(ADD_DESTINATION));
    }

    @Test
    void connectDataSinkAthenaThenSchemaSinkGlue() throws IOException {
        CliRun athena =
                CliRun.run(
                        dir,
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
        assertThat(athena.exitCode()).as(athena.all()).isZero();

        CliRun glue =
                CliRun.run(
                        dir,
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
        assertThat(glue.exitCode()).as(glue.all()).isZero();
        assertThat(glue.out())
                .startsWith(
                        "Wrote schema_sinks.glue (Glue) and linked it from"
                                + " data_sinks.lake of pipeline 'orders'");

        assertThat(saved()).isEqualTo(SpecExamples.expected(SCHEMA_SINKS));
    }

    @Test
    void connectWritesBothCopiesOfAPairedKind() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "duckdb",
                        "--pipeline",
                        "orders",
                        "--name",
                        "lake",
                        "--path",
                        "lake.duckdb");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(saved())
                .isEqualTo(
                        SpecExamples.merge(
                                SpecExamples.parse(SpecExamples.text(START)),
                                SpecExamples.parse(
                                        """
                                pipelines:
                                  orders: {data_sink: data_sinks.lake}
                                data_sinks:
                                  lake:
                                    schema_sink: schema_sinks.lake
                                    DuckDB: {path: lake.duckdb}
                                schema_sinks:
                                  lake:
                                    DuckDB: {path: lake.duckdb}
                                """)));
    }

    /** Not on the page: AMQP's fields, TLS's included, as the catalog declares them. */
    @Test
    void connectDataSinkAmqpWithTls() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "amqp",
                        "--pipeline",
                        "orders",
                        "--name",
                        "events",
                        "--host",
                        "mq.internal",
                        "--user",
                        "skippr_loader",
                        "--password",
                        "${MQ_PASSWORD}",
                        "--virtual-host",
                        "orders",
                        "--exchange",
                        "skippr",
                        "--tls",
                        "true",
                        "--tls-ca-file",
                        "/etc/skippr/mq-ca.pem");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(((Map<?, ?>) saved().get("data_sinks")).get("events"))
                .isEqualTo(
                        SpecExamples.parse(
                                """
                AMQP:
                  host: mq.internal
                  user: skippr_loader
                  password: ${MQ_PASSWORD}
                  virtual_host: orders
                  exchange: skippr
                  tls: true
                  tls_ca_file: /etc/skippr/mq-ca.pem
                """));
    }

    /** Not on the page: Redshift's fields, the staging bucket's endpoint and IAM role included. */
    @Test
    void connectDataSinkRedshift() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "redshift",
                        "--pipeline",
                        "orders",
                        "--name",
                        "warehouse",
                        "--host",
                        "acme.abc123.eu-west-1.redshift.amazonaws.com",
                        "--user",
                        "skippr_loader",
                        "--password",
                        "${REDSHIFT_PASSWORD}",
                        "--database",
                        "dev",
                        "--schema",
                        "raw",
                        "--s3-bucket",
                        "acme-staging",
                        "--iam-role",
                        "arn:aws:iam::123456789012:role/redshift-copy",
                        "--region",
                        "eu-west-1",
                        "--endpoint",
                        "https://s3.private.example.com",
                        "--path-style-access");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        "Wrote data_sinks.warehouse (Redshift) as the data sink of pipeline"
                                + " 'orders' in "
                                + dir.resolve("skippr.yml")
                                + "\n");
        assertThat(((Map<?, ?>) saved().get("data_sinks")).get("warehouse"))
                .isEqualTo(
                        SpecExamples.parse(
                                """
                Redshift:
                  host: acme.abc123.eu-west-1.redshift.amazonaws.com
                  user: skippr_loader
                  password: ${REDSHIFT_PASSWORD}
                  database: dev
                  schema: raw
                  s3_bucket: acme-staging
                  iam_role: arn:aws:iam::123456789012:role/redshift-copy
                  region: eu-west-1
                  endpoint: https://s3.private.example.com
                  path_style_access: true
                """));
    }

    /** Not on the page: Databricks' fields, the volume and endpoint included. */
    @Test
    void connectDataSinkDatabricks() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "databricks",
                        "--pipeline",
                        "orders",
                        "--name",
                        "lakehouse",
                        "--server-hostname",
                        "dbc-1234.cloud.databricks.com",
                        "--http-path",
                        "/sql/1.0/warehouses/abc123",
                        "--access-token",
                        "${DATABRICKS_TOKEN}",
                        "--catalog",
                        "analytics",
                        "--schema",
                        "raw",
                        "--volume",
                        "skippr_files",
                        "--endpoint",
                        "https://private.example.com");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        "Wrote data_sinks.lakehouse (Databricks) as the data sink of pipeline"
                                + " 'orders' in "
                                + dir.resolve("skippr.yml")
                                + "\n");
        assertThat(((Map<?, ?>) saved().get("data_sinks")).get("lakehouse"))
                .isEqualTo(
                        SpecExamples.parse(
                                """
                Databricks:
                  server_hostname: dbc-1234.cloud.databricks.com
                  http_path: /sql/1.0/warehouses/abc123
                  access_token: ${DATABRICKS_TOKEN}
                  catalog: analytics
                  schema: raw
                  volume: skippr_files
                  endpoint: https://private.example.com
                """));
    }

    @Test
    void connectDataSinkSnowflakeWithKeyPairRoleStageAndEndpoint() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "snowflake",
                        "--pipeline",
                        "orders",
                        "--name",
                        "warehouse",
                        "--account",
                        "acme-analytics",
                        "--user",
                        "SKIPPR_LOADER",
                        "--private-key-file",
                        "/etc/skippr/snowflake_key.p8",
                        "--private-key-passphrase",
                        "${SNOWFLAKE_KEY_PASSPHRASE}",
                        "--database",
                        "ANALYTICS",
                        "--schema",
                        "RAW",
                        "--warehouse",
                        "LOADING",
                        "--role",
                        "SKIPPR_LOADER",
                        "--stage",
                        "skippr_files",
                        "--endpoint",
                        "https://acme-analytics.privatelink.snowflakecomputing.com");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(((Map<?, ?>) saved().get("data_sinks")).get("warehouse"))
                .isEqualTo(
                        SpecExamples.parse(
                                """
                Snowflake:
                  account: acme-analytics
                  user: SKIPPR_LOADER
                  private_key_file: /etc/skippr/snowflake_key.p8
                  private_key_passphrase: ${SNOWFLAKE_KEY_PASSPHRASE}
                  database: ANALYTICS
                  schema: RAW
                  warehouse: LOADING
                  role: SKIPPR_LOADER
                  stage: skippr_files
                  endpoint: https://acme-analytics.privatelink.snowflakecomputing.com
                """));
    }

    @Test
    void connectDataSinkSynapse() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "synapse",
                        "--pipeline",
                        "orders",
                        "--name",
                        "pool",
                        "--host",
                        "acme.sql.azuresynapse.net",
                        "--user",
                        "skippr_loader",
                        "--password",
                        "${SYNAPSE_PASSWORD}",
                        "--database",
                        "dw",
                        "--schema",
                        "raw",
                        "--storage-account",
                        "acmestaging",
                        "--storage-container",
                        "skippr",
                        "--storage-account-key",
                        "${STAGING_KEY}",
                        "--storage-endpoint",
                        "https://acmestaging.privatelink.blob.core.windows.net",
                        "--distribution",
                        "hash");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        "Wrote data_sinks.pool (Synapse) as the data sink of pipeline"
                                + " 'orders' in "
                                + dir.resolve("skippr.yml")
                                + "\n");
        assertThat(((Map<?, ?>) saved().get("data_sinks")).get("pool"))
                .isEqualTo(
                        SpecExamples.parse(
                                """
                Synapse:
                  host: acme.sql.azuresynapse.net
                  user: skippr_loader
                  password: ${SYNAPSE_PASSWORD}
                  database: dw
                  schema: raw
                  storage_account: acmestaging
                  storage_container: skippr
                  storage_account_key: ${STAGING_KEY}
                  storage_endpoint: https://acmestaging.privatelink.blob.core.windows.net
                  distribution: hash
                """));
    }

    @Test
    void connectDataSinkBigQuery() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-sink",
                        "bigquery",
                        "--pipeline",
                        "orders",
                        "--name",
                        "warehouse",
                        "--project-id",
                        "acme-analytics",
                        "--dataset",
                        "raw",
                        "--location",
                        "EU",
                        "--credentials-file",
                        "keys/loader.json",
                        "--endpoint",
                        "https://bigquery.private.example.com",
                        "--write-endpoint",
                        "bigquerystorage.private.example.com:443");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        "Wrote data_sinks.warehouse (BigQuery) as the data sink of pipeline"
                                + " 'orders' in "
                                + dir.resolve("skippr.yml")
                                + "\n");
        assertThat(((Map<?, ?>) saved().get("data_sinks")).get("warehouse"))
                .isEqualTo(
                        SpecExamples.parse(
                                """
                BigQuery:
                  project_id: acme-analytics
                  dataset: raw
                  location: EU
                  credentials_file: keys/loader.json
                  endpoint: https://bigquery.private.example.com
                  write_endpoint: bigquerystorage.private.example.com:443
                """));
    }

    @Test
    void connectDataSourceCreatesThePipeline() throws IOException {
        CliRun run =
                CliRun.run(
                        dir,
                        "connect",
                        "data-source",
                        "local-file",
                        "--pipeline",
                        "files",
                        "--name",
                        "drops",
                        "--path",
                        "in/*.csv",
                        "--format",
                        "csv");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(saved().get("pipelines"))
                .isEqualTo(
                        SpecExamples.parse(
                                """
                orders: {data_source: data_sources.app_db}
                files: {data_source: data_sources.drops}
                """));
    }

    @Test
    void validatePassesOnThePagesFileWhenTheSecretsAreSet() throws IOException {
        Files.writeString(dir.resolve("skippr.yml"), SpecExamples.expectedText(ADD_DESTINATION));

        CliRun run =
                CliRun.run(
                        dir,
                        Map.of("APP_DB_PASSWORD", "a", "WAREHOUSE_PASSWORD", "b"),
                        "validate",
                        "--pipeline",
                        "orders");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        dir.resolve("skippr.yml")
                                + " is valid: 1 pipeline"
                                + " (orders), 1 data source, 1 data sink\n");
    }
}
