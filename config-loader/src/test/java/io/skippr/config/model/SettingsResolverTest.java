package io.skippr.config.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Config;
import io.skippr.config.ConfigException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ${VAR} references are resolved when a run asks, with clear errors and no leaked values. */
class SettingsResolverTest {
    private static final String YAML =
            """
            pipelines:
              orders:
                data_source: data_sources.app_db
                data_sink: data_sinks.warehouse
            data_sources:
              app_db:
                Postgres:
                  host: ${DB_HOST}
                  port: ${DB_PORT}
                  user: reader
                  password: ${DB_PASSWORD}
                  database: app_${ENVIRONMENT}
            data_sinks:
              warehouse:
                ClickHouse:
                  host: ch
                  secure: ${CH_SECURE}
                  password: ${CH_PASSWORD}
            """;

    private final Config config = Config.parse(YAML, Path.of("skippr.yml"));

    @Test
    void substitutesTypesAndWrapsSecrets() {
        ResolvedPipeline run =
                config.getPipeline("orders")
                        .resolve(
                                Map.of(
                                        "DB_HOST", "db.internal",
                                        "DB_PORT", "6432",
                                        "DB_PASSWORD", "pw-1",
                                        "ENVIRONMENT", "prod",
                                        "CH_SECURE", "true",
                                        "CH_PASSWORD", "pw-2"));

        ResolvedSettings source = run.dataSource();
        assertThat(source.string("host")).contains("db.internal");
        assertThat(source.integer("port")).contains(6432L);
        assertThat(source.string("database")).contains("app_prod");
        assertThat(source.string("schema")).as("default").contains("public");
        assertThat(source.secret("password").orElseThrow().reveal()).isEqualTo("pw-1");
        assertThat(source.toString()).doesNotContain("pw-1");
        assertThat(run.dataSink().bool("secure")).isTrue();
        assertThat(run.dataSink().integer("port")).contains(8123L);
    }

    @Test
    void pathsAreRelativeToTheConfigFilesFolder() {
        Config cfg =
                Config.parse(
                        """
                pipelines:
                  p: {data_source: data_sources.files, data_sink: data_sinks.out}
                data_sources:
                  files:
                    LocalFile: {path: data/*.csv}
                data_sinks:
                  out:
                    LocalFile: {path: /var/out}
                """,
                        Path.of("/srv/project/skippr.yml"));
        ResolvedPipeline run = cfg.getPipeline("p").resolve(Map.of());
        assertThat(run.dataSource().string("path")).contains("/srv/project/data/*.csv");
        assertThat(run.dataSink().string("path")).contains("/var/out");
    }

    @Test
    void everyMissingVariableIsNamedWithTheEntryThatNeedsIt() {
        assertThatThrownBy(
                        () ->
                                config.getPipeline("orders")
                                        .resolve(
                                                Map.of(
                                                        "DB_HOST",
                                                        "h",
                                                        "DB_PORT",
                                                        "1",
                                                        "ENVIRONMENT",
                                                        "x",
                                                        "CH_SECURE",
                                                        "false")))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "skippr.yml:11:17: data_sources.app_db.Postgres.password: environment"
                                + " variable DB_PASSWORD is not set; the data source 'app_db'"
                                + " needs it (export DB_PASSWORD=...)\n"
                                + "skippr.yml:18:17: data_sinks.warehouse.ClickHouse.password:"
                                + " environment variable CH_PASSWORD is not set; the data sink"
                                + " 'warehouse' needs it (export CH_PASSWORD=...)\n"
                                + "2 errors in skippr.yml");
    }

    @Test
    void aVariableOfTheWrongTypeIsAnErrorThatShowsNoSecret() {
        assertThatThrownBy(
                        () ->
                                config.getPipeline("orders")
                                        .resolve(
                                                Map.of(
                                                        "DB_HOST",
                                                        "h",
                                                        "DB_PORT",
                                                        "fifty",
                                                        "DB_PASSWORD",
                                                        "p",
                                                        "ENVIRONMENT",
                                                        "x",
                                                        "CH_SECURE",
                                                        "yes please",
                                                        "CH_PASSWORD",
                                                        "q")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "skippr.yml:9:13: data_sources.app_db.Postgres.port:"
                                + " expected an integer from the environment, found 'fifty'")
                .hasMessageContaining(
                        "data_sinks.warehouse.ClickHouse.secure: expected true or"
                                + " false from the environment, found 'yes please'");
    }
}
