package io.skippr.config.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every kind of the spec is declared once, with the field names the spec and scripts use. */
class CatalogTest {
    private final Catalog catalog = Catalog.get();

    private List<String> names(Role role) {
        return catalog.kinds(role).stream().map(KindSpec::name).toList();
    }

    private List<String> fields(Role role, String kind) {
        return catalog.get(role, kind).fields().stream().map(Field::name).toList();
    }

    @Test
    void declaresEveryDataSinkOfTheSpec() {
        assertThat(names(Role.DATA_SINK))
                .containsExactlyInAnyOrder(
                        "Athena",
                        "AthenaIceberg",
                        "BigQuery",
                        "ClickHouse",
                        "Databricks",
                        "DuckDB",
                        "MotherDuck",
                        "Postgres",
                        "Redshift",
                        "SkipprLake",
                        "Snowflake",
                        "Synapse",
                        "AzureBlob",
                        "GCS",
                        "S3",
                        "SFTP",
                        "AMQP",
                        "LocalFile",
                        "Stdout");
    }

    @Test
    void declaresTheSchemaSinksAndSources() {
        assertThat(names(Role.SCHEMA_SINK))
                .containsExactlyInAnyOrder("Glue", "AthenaIceberg", "SkipprLake", "DuckDB");
        assertThat(names(Role.DATA_SOURCE)).containsExactlyInAnyOrder("Postgres", "LocalFile");
    }

    @Test
    void fieldNamesFollowTheSpec() {
        assertThat(fields(Role.DATA_SINK, "Postgres"))
                .containsSubsequence("host", "user", "password", "database", "schema");
        assertThat(fields(Role.DATA_SOURCE, "Postgres"))
                .contains(
                        "host",
                        "port",
                        "user",
                        "password",
                        "database",
                        "schema",
                        "tables",
                        "cursor_column");
        assertThat(fields(Role.DATA_SINK, "Athena"))
                .containsSubsequence(
                        "s3_bucket",
                        "s3_prefix",
                        "athena_workgroup_name",
                        "athena_results_s3_bucket");
        assertThat(fields(Role.SCHEMA_SINK, "Glue"))
                .containsSubsequence(
                        "s3_bucket",
                        "s3_prefix",
                        "athena_workgroup_name",
                        "athena_results_s3_bucket",
                        "glue_database_name");
        assertThat(fields(Role.DATA_SINK, "S3"))
                .contains("s3_bucket", "s3_prefix", "region", "endpoint", "format");
        assertThat(fields(Role.DATA_SINK, "DuckDB")).containsExactly("path", "schema");
        assertThat(fields(Role.DATA_SINK, "MotherDuck"))
                .containsExactly("database", "token", "schema");
        assertThat(fields(Role.DATA_SOURCE, "LocalFile")).contains("path", "format");
        assertThat(fields(Role.DATA_SINK, "LocalFile")).contains("path", "format");
    }

    @Test
    void defaultsTheSpecAndIssueFix() {
        Map<String, String> expected = Map.of("port", "5432", "schema", "public");
        expected.forEach(
                (field, value) ->
                        assertThat(
                                        catalog.get(Role.DATA_SOURCE, "Postgres")
                                                .field(field)
                                                .orElseThrow()
                                                .defaultValue())
                                .isEqualTo(value));
        assertThat(
                        catalog.get(Role.DATA_SOURCE, "Postgres")
                                .field("cursor_column")
                                .orElseThrow()
                                .isRequired())
                .isFalse();
        assertThat(catalog.get(Role.DATA_SINK, "LocalFile").field("format").orElseThrow().choices())
                .containsExactly("parquet", "jsonl", "csv");
    }

    @Test
    void credentialsAreSecretAndSecretsHaveNoDefault() {
        for (KindSpec kind : catalog.all()) {
            for (Field field : kind.fields()) {
                if (field.name().contains("password")
                        || field.name().endsWith("token")
                        || field.name().equals("account_key")
                        || field.name().endsWith("passphrase")) {
                    assertThat(field.isSecret()).as(kind.name() + "." + field.name()).isTrue();
                }
                if (field.isSecret()) {
                    assertThat(field.defaultValue()).as(kind.name() + "." + field.name()).isNull();
                }
            }
        }
    }

    @Test
    void everyFieldIsDescribedAndDefaultsAreValid() {
        for (KindSpec kind : catalog.all()) {
            assertThat(kind.description()).as(kind.name()).isNotBlank();
            for (Field field : kind.fields()) {
                assertThat(field.description()).as(kind.name() + "." + field.name()).isNotBlank();
                if (field.defaultValue() != null && !field.choices().isEmpty()) {
                    assertThat(field.choices()).contains(field.defaultValue());
                }
            }
        }
    }

    @Test
    void pairedKindsExistInBothRolesWithTheSameFields() {
        for (KindSpec sink : catalog.kinds(Role.DATA_SINK)) {
            if (sink.paired()) {
                KindSpec schema = catalog.get(Role.SCHEMA_SINK, sink.name());
                assertThat(schema.paired()).isTrue();
                assertThat(schema.fields()).isEqualTo(sink.fields());
            }
        }
        assertThat(
                        catalog.kinds(Role.DATA_SINK).stream()
                                .filter(KindSpec::paired)
                                .map(KindSpec::name))
                .containsExactlyInAnyOrder("AthenaIceberg", "SkipprLake", "DuckDB");
        assertThat(catalog.get(Role.DATA_SINK, "Athena").schemaSinks()).containsExactly("Glue");
        assertThat(catalog.get(Role.DATA_SINK, "Postgres").takesSchemaSink()).isFalse();
    }

    @Test
    void everyDataSinkStatesItsGuarantee() {
        for (KindSpec sink : catalog.kinds(Role.DATA_SINK)) {
            assertThat(sink.guarantee()).as(sink.name()).isNotEqualTo(Guarantee.NOT_APPLICABLE);
        }
    }

    @Test
    void flagsAndCommandsDeriveFromNames() {
        Field prefix = catalog.get(Role.SCHEMA_SINK, "Glue").field("s3_prefix").orElseThrow();
        assertThat(prefix.flag()).isEqualTo("--s3-prefix");
        assertThat(prefix.javaName()).isEqualTo("s3Prefix");
        KindSpec iceberg = catalog.get(Role.DATA_SINK, "AthenaIceberg");
        assertThat(iceberg.command()).isEqualTo("athenaiceberg");
        assertThat(iceberg.commandAliases()).containsExactly("athena-iceberg");
        assertThat(iceberg.className()).isEqualTo("DataSinkAthenaIceberg");
        assertThat(catalog.get(Role.DATA_SINK, "DuckDB").command()).isEqualTo("duckdb");
    }
}
