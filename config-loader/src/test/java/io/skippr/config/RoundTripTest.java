package io.skippr.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.connectors.DataSinkDuckDB;
import io.skippr.config.connectors.DataSinkPostgres;
import io.skippr.config.connectors.DataSinkS3;
import io.skippr.config.connectors.DataSourcePostgres;
import io.skippr.config.testing.SpecExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Load, change and save keep what the user wrote: order, comments, references. */
class RoundTripTest {
    private static final String HAND_WRITTEN =
            """
            # Skippr config for the shop
            # owned by the data team

            data_sources:
              # the application database
              app_db:
                Postgres:
                  database: app # logical name
                  host: app-db.internal
                  user: skippr_reader
                  password: ${APP_DB_PASSWORD}
                  tables:
                    - orders
                    - customers_*

            pipelines:
              orders:
                data_sink: data_sinks.warehouse
                data_source: data_sources.app_db

            data_sinks:
              warehouse:
                Postgres:
                  host: warehouse.internal
                  port: 6543
                  user: loader
                  password: ${WAREHOUSE_PASSWORD}
                  database: analytics
                  sslmode: require
            # end of file
            """;

    @TempDir Path dir;

    private Config write(String text) throws IOException {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(file, text);
        return Config.load(file);
    }

    @Test
    void loadSaveLoadIsTheIdentity() throws IOException {
        Config cfg = write(HAND_WRITTEN);
        cfg.save();
        String once = Files.readString(cfg.path());

        assertThat(SpecExamples.parse(once)).isEqualTo(SpecExamples.parse(HAND_WRITTEN));
        assertThat(once).isEqualTo(HAND_WRITTEN);

        Config again = Config.load(cfg.path());
        again.save();
        assertThat(Files.readString(cfg.path())).isEqualTo(once);
        assertThat(again.model()).isEqualTo(cfg.model());
    }

    @Test
    void changingOneEntryKeepsCommentsAndOrderEverywhereElse() throws IOException {
        Config cfg = write(HAND_WRITTEN);
        cfg.dataSink(
                "warehouse",
                new DataSinkPostgres()
                        .host("warehouse.internal")
                        .port(6543)
                        .user("loader")
                        .password(new EnvRef("WAREHOUSE_PASSWORD"))
                        .database("analytics2")
                        .sslmode("require"));
        cfg.save();

        String text = Files.readString(cfg.path());
        assertThat(text).isEqualTo(HAND_WRITTEN.replace("analytics", "analytics2"));
    }

    @Test
    void aResolvedSecretIsNeverWritten() throws IOException {
        Config cfg = write(HAND_WRITTEN);
        var run =
                cfg.getPipeline("orders")
                        .resolve(
                                Map.of(
                                        "APP_DB_PASSWORD", "s3cr3t-source",
                                        "WAREHOUSE_PASSWORD", "s3cr3t-sink"));
        assertThat(run.dataSink().secret("password").orElseThrow().reveal())
                .isEqualTo("s3cr3t-sink");
        cfg.dataSink("other", new DataSinkS3().s3Bucket("b"));
        cfg.save();

        String text = Files.readString(cfg.path());
        assertThat(text).doesNotContain("s3cr3t").contains("password: ${WAREHOUSE_PASSWORD}");
        assertThat(run.toString()).doesNotContain("s3cr3t");
    }

    @Test
    void aFieldLeftAtItsDefaultIsNotWritten() throws IOException {
        Config cfg = Config.empty(dir.resolve("skippr.yml"));
        cfg.dataSink("a", new DataSinkPostgres().host("h").user("u").database("d").port(5432));
        cfg.dataSink("b", new DataSinkPostgres().host("h").user("u").database("d").port(5433));
        cfg.dataSink("c", new DataSinkS3().s3Bucket("x").format("parquet").format("csv"));

        Map<String, Object> doc = SpecExamples.parse(cfg.text());
        assertThat(doc)
                .isEqualTo(
                        SpecExamples.parse(
                                """
                                data_sinks:
                                  a:
                                    Postgres: {host: h, user: u, database: d}
                                  b:
                                    Postgres: {host: h, port: 5433, user: u, database: d}
                                  c:
                                    S3: {s3_bucket: x, format: csv}
                                """));
    }

    @Test
    void aNewFileGetsSectionsInCanonicalOrderWithBlankLinesBetween() throws IOException {
        Config cfg = Config.empty(dir.resolve("skippr.yml"));
        EntryRef sink =
                cfg.dataSink("warehouse", new DataSinkPostgres().host("h").user("u").database("d"));
        EntryRef source =
                cfg.dataSource(
                        "app_db",
                        new DataSourcePostgres()
                                .host("a")
                                .user("u")
                                .database("app")
                                .tables("orders", "customers"));
        cfg.pipeline("orders", new Pipeline(source, sink));
        cfg.save();

        assertThat(Files.readString(cfg.path()))
                .isEqualTo(
                        """
                        pipelines:
                          orders:
                            data_source: data_sources.app_db
                            data_sink: data_sinks.warehouse

                        data_sources:
                          app_db:
                            Postgres:
                              host: a
                              user: u
                              database: app
                              tables:
                                - orders
                                - customers

                        data_sinks:
                          warehouse:
                            Postgres:
                              host: h
                              user: u
                              database: d
                        """);
        assertThat(Config.load(cfg.path()).model().pipelines()).containsKey("orders");
    }

    @Test
    void aPairedKindIsRegisteredAsDataSinkAndSchemaSinkFromOneCall() throws IOException {
        Config cfg = write(HAND_WRITTEN);
        EntryRef lake =
                cfg.dataSink("lake", new DataSinkDuckDB().path("lake.duckdb").schema("raw"));
        cfg.pipeline("orders", new Pipeline(cfg.getDataSource("app_db"), lake));

        var model = cfg.model();
        var sink = model.entry(Section.DATA_SINKS, "lake").orElseThrow();
        var schema = model.entry(Section.SCHEMA_SINKS, "lake").orElseThrow();
        assertThat(sink.schemaSink()).isEqualTo("lake");
        assertThat(schema.kind().name()).isEqualTo("DuckDB");
        assertThat(schema.settings())
                .isEqualTo(sink.settings())
                .isEqualTo(Map.of("path", "lake.duckdb", "schema", "raw"));
    }

    @Test
    void replacingAnEntryWithAnotherKindDropsTheOldKind() throws IOException {
        Config cfg = write(HAND_WRITTEN);
        cfg.dataSink(
                "warehouse",
                new DataSinkS3().s3Bucket("bucket").endpoint(new EnvRef("S3_ENDPOINT")));

        Map<String, Object> sink = sinks(cfg).get("warehouse");
        assertThat(sink)
                .isEqualTo(
                        Map.of("S3", Map.of("s3_bucket", "bucket", "endpoint", "${S3_ENDPOINT}")));
        assertThat(cfg.text()).contains("# end of file").contains("# the application database");
    }

    @Test
    void pipelineHoldsExactlyWhatTheJavaApiGives() throws IOException {
        Config cfg = write(HAND_WRITTEN);
        cfg.pipeline("orders", new Pipeline(cfg.getDataSource("app_db")).withWriteMode("merge"));

        assertThat(SpecExamples.parse(cfg.text()).get("pipelines"))
                .isEqualTo(
                        Map.of(
                                "orders",
                                Map.of(
                                        "data_source",
                                        "data_sources.app_db",
                                        "write_mode",
                                        "merge")));
        assertThat(cfg.model().pipeline("orders").orElseThrow().writeMode()).isEqualTo("merge");
    }

    @Test
    void softDeletesFromTheJavaApiIsWrittenAndRead() throws IOException {
        Config cfg =
                write(
                        HAND_WRITTEN.replace(
                                "      tables:", "      replication_method: cdc\n      tables:"));
        cfg.pipeline(
                "orders",
                new Pipeline(cfg.getDataSource("app_db"))
                        .withWriteMode("merge")
                        .withSoftDeletes(true));

        assertThat(cfg.text()).contains("    write_mode: merge\n    soft_deletes: true\n");
        assertThat(cfg.model().pipeline("orders").orElseThrow().softDeletes()).isTrue();
        cfg.pipeline("orders", new Pipeline(cfg.getDataSource("app_db")).withWriteMode("merge"));
        assertThat(cfg.text()).doesNotContain("soft_deletes");
        assertThat(cfg.model().pipeline("orders").orElseThrow().softDeletes()).isFalse();
        // the Python package's edits
        ConfigEdits.apply(
                cfg,
                "{\"edits\": [{\"op\": \"pipeline\", \"name\": \"orders\", \"data_source\":"
                        + " {\"section\": \"data_sources\", \"name\": \"app_db\"},"
                        + " \"soft_deletes\": true}]}");
        assertThat(cfg.model().pipeline("orders").orElseThrow().softDeletes()).isTrue();
    }

    @Test
    void editsThatLeaveAPipelineTheLoaderRefusesFail() throws IOException {
        Config cfg = write(HAND_WRITTEN); // app_db reads no changes
        assertThatThrownBy(
                        () ->
                                ConfigEdits.apply(
                                        cfg,
                                        "{\"edits\": [{\"op\": \"pipeline\", \"name\":"
                                                + " \"mirror\", \"data_source\": {\"section\":"
                                                + " \"data_sources\", \"name\": \"app_db\"},"
                                                + " \"soft_deletes\": true}]}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "pipelines.mirror.soft_deletes: soft_deletes marks the rows change data"
                                + " capture deletes, and data_sources.app_db does not read"
                                + " changes: set replication_method: cdc on it (a Postgres"
                                + " source), or remove soft_deletes");
    }

    @Test
    void listsAndEnvReferencesSurviveInTheModel() throws IOException {
        Config cfg = write(HAND_WRITTEN);
        var source = cfg.model().entry(Section.DATA_SOURCES, "app_db").orElseThrow();
        assertThat(source.settings().get("tables")).isEqualTo(List.of("orders", "customers_*"));
        assertThat(source.settings().get("password")).isEqualTo("${APP_DB_PASSWORD}");
        assertThat(source.locationOf("password").line()).isEqualTo(11);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> sinks(Config cfg) {
        return (Map<String, Map<String, Object>>) SpecExamples.parse(cfg.text()).get("data_sinks");
    }
}
