package io.skippr.sinks.athena;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Config;
import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedPipeline;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.SinkContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the Athena kind refuses before it touches S3 or Glue. */
class AthenaSinkFactoryTest {
    @TempDir Path dir;

    private SinkContext context(String lake, String glue, String writeMode) throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                """
                pipelines:
                  orders:
                    data_source: data_sources.app_db
                    data_sink: data_sinks.lake
                data_sources:
                  app_db:
                    Postgres: {host: db, user: u, password: p, database: app}
                data_sinks:
                  lake:
                    schema_sink: schema_sinks.glue
                    Athena:
                      athena_workgroup_name: primary
                      athena_results_s3_bucket: acme-athena-results
                %s
                schema_sinks:
                  glue:
                    Glue:
                      athena_workgroup_name: primary
                      athena_results_s3_bucket: acme-athena-results
                      glue_database_name: bronze
                %s
                """
                        .formatted(lake.indent(6).stripTrailing(), glue.indent(6).stripTrailing()));
        ResolvedPipeline run = Config.load(file).getPipeline("orders").resolve(Map.of());
        return new SinkContext(
                "orders",
                "lake",
                run.dataSink(),
                true,
                dir,
                writeMode,
                FailPoint.NONE,
                run.schemaSink());
    }

    @Test
    void onlyAppends() throws Exception {
        SinkContext merge = context("s3_bucket: acme-lake", "s3_bucket: acme-lake", "merge");
        assertThatThrownBy(() -> new AthenaSinkFactory().create(merge))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "pipelines.orders.write_mode: Athena sinks only append; write_mode merge"
                                + " needs a SQL destination");
    }

    @Test
    void aGlueEntryThatNamesAnotherPrefixIsRefusedNamingBothFields() throws Exception {
        SinkContext context =
                context(
                        "s3_bucket: acme-lake\ns3_prefix: bronze/orders",
                        "s3_bucket: acme-lake\ns3_prefix: bronze/order",
                        "append");
        assertThatThrownBy(() -> new AthenaSinkFactory().create(context))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "schema_sinks.glue.Glue.s3_prefix: expected the value of"
                                + " data_sinks.lake.Athena.s3_prefix ('bronze/orders'), since the"
                                + " Glue tables read the files the data sink writes; found"
                                + " 'bronze/order'");
    }

    @Test
    void aGlueEndpointThatIsNoUrlNamesTheField() throws Exception {
        SinkContext context =
                context(
                        "s3_bucket: acme-lake",
                        "s3_bucket: acme-lake\nglue_endpoint: glue.internal:4566",
                        "append");
        assertThatThrownBy(() -> new AthenaSinkFactory().create(context))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "schema_sinks.glue.Glue.glue_endpoint: Glue endpoint"
                                + " 'glue.internal:4566' is not a URL");
    }

    @Test
    void anS3EndpointThatIsNoUrlNamesTheField() throws Exception {
        SinkContext context =
                context(
                        "s3_bucket: acme-lake\ns3_endpoint: minio:9000",
                        "s3_bucket: acme-lake",
                        "append");
        assertThatThrownBy(() -> new AthenaSinkFactory().create(context))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "data_sinks.lake.Athena.s3_endpoint: S3 endpoint 'minio:9000' is not a"
                                + " URL");
    }
}
