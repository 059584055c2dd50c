package io.skippr.config;

import static io.skippr.config.testing.SpecExamples.ADD_DESTINATION;
import static io.skippr.config.testing.SpecExamples.DEADLETTER;
import static io.skippr.config.testing.SpecExamples.SCHEMA_SINKS;
import static io.skippr.config.testing.SpecExamples.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.connectors.DataSinkAthena;
import io.skippr.config.connectors.DataSinkPostgres;
import io.skippr.config.connectors.DataSinkS3;
import io.skippr.config.connectors.SchemaSinkGlue;
import io.skippr.config.model.ConfigModel;
import io.skippr.config.model.ResolvedPipeline;
import io.skippr.config.testing.SpecExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Python examples of the destinations page, in Java, produce the page's YAML exactly. */
class SpecExamplesTest {
    @TempDir Path dir;

    private Path start(String... blocks) throws IOException {
        Path file = dir.resolve("skippr.yml");
        String text =
                blocks.length == 0 ? SpecExamples.text(START) : SpecExamples.expectedText(blocks);
        Files.writeString(file, text);
        return file;
    }

    private Map<String, Object> saved(Path file) throws IOException {
        return SpecExamples.parse(Files.readString(file));
    }

    @Test
    void addADestinationToAPipeline() throws IOException {
        Path file = start();

        Config cfg = Config.load(file.toString());
        EntryRef warehouse =
                cfg.dataSink(
                        "warehouse",
                        new DataSinkPostgres()
                                .host("warehouse.internal")
                                .user("skippr_loader")
                                .password(new EnvRef("WAREHOUSE_PASSWORD"))
                                .database("analytics")
                                .schema("raw"));
        EntryRef appDb = cfg.getDataSource("app_db");
        cfg.pipeline("orders", new Pipeline(appDb, warehouse));
        cfg.save();

        assertThat(saved(file)).isEqualTo(SpecExamples.expected(ADD_DESTINATION));
        assertThat(Files.readString(file)).contains("password: ${WAREHOUSE_PASSWORD}");
    }

    @Test
    void schemaSinksAthenaWithGlue() throws IOException {
        Path file = start();

        Config cfg = Config.load(file.toString());
        EntryRef glue =
                cfg.schemaSink(
                        "glue",
                        new SchemaSinkGlue()
                                .s3Bucket("acme-lake")
                                .s3Prefix("bronze/orders")
                                .athenaWorkgroupName("primary")
                                .athenaResultsS3Bucket("acme-athena-results")
                                .glueDatabaseName("bronze"));
        EntryRef lake =
                cfg.dataSink(
                        "lake",
                        new DataSinkAthena()
                                .s3Bucket("acme-lake")
                                .s3Prefix("bronze/orders")
                                .athenaWorkgroupName("primary")
                                .athenaResultsS3Bucket("acme-athena-results"),
                        glue);
        cfg.pipeline("orders", new Pipeline(cfg.getDataSource("app_db"), lake));
        cfg.save();

        assertThat(saved(file)).isEqualTo(SpecExamples.expected(SCHEMA_SINKS));
        assertThat(Files.readString(file))
                .as("schema_sink is written first in the data sink entry, as the page shows")
                .contains("  lake:\n    schema_sink: schema_sinks.glue\n    Athena:\n");
    }

    @Test
    void routeFailedRecordsToADeadletterSink() throws IOException {
        Path file = start(ADD_DESTINATION);

        Config cfg = Config.load(file.toString());
        EntryRef rejects =
                cfg.deadletterSink(
                        "rejects",
                        new DataSinkS3().s3Bucket("acme-lake").s3Prefix("deadletters/orders"));
        cfg.pipeline(
                "orders",
                new Pipeline(cfg.getDataSource("app_db"), cfg.getDataSink("warehouse"), rejects));
        cfg.save();

        assertThat(saved(file)).isEqualTo(SpecExamples.expected(ADD_DESTINATION, DEADLETTER));
    }

    @Test
    void everyYamlBlockOfThePageValidatesOnTheStartingFile() {
        for (String[] blocks :
                new String[][] {{ADD_DESTINATION}, {SCHEMA_SINKS}, {ADD_DESTINATION, DEADLETTER}}) {
            Config cfg = Config.parse(SpecExamples.expectedText(blocks), dir.resolve("skippr.yml"));
            ConfigModel model = cfg.model();
            assertThat(model.pipelines()).containsKey("orders");
        }
    }

    @Test
    void runOneSyncResolvesBothEndsSecretsFromTheEnvironment() throws IOException {
        start(ADD_DESTINATION);
        Config cfg = Config.load(dir.resolve("skippr.yml"));

        ResolvedPipeline run =
                cfg.getPipeline("orders")
                        .resolve(
                                Map.of(
                                        "APP_DB_PASSWORD", "your-source-password",
                                        "WAREHOUSE_PASSWORD", "your-warehouse-password"));

        assertThat(run.dataSource().secret("password").orElseThrow().reveal())
                .isEqualTo("your-source-password");
        assertThat(run.dataSink().secret("password").orElseThrow().reveal())
                .isEqualTo("your-warehouse-password");
        assertThat(run.dataSink().string("schema")).contains("raw");
        assertThat(run.dataSink().integer("port")).as("default applied").contains(5432L);
        assertThat(run.dataSink().toString()).doesNotContain("your-warehouse-password");
    }
}
