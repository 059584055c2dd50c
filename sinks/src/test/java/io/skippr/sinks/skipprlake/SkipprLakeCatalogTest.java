package io.skippr.sinks.skipprlake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.ConfigException;
import io.skippr.config.Secret;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where SkipprLake's catalog lives, and the settings it refuses before a run starts. */
class SkipprLakeCatalogTest {
    private static final String AT = "data_sinks.lake.SkipprLake.";

    @TempDir Path dir;

    @Test
    void aLocalWarehouseKeepsItsEmbeddedCatalogInside() {
        SkipprLakeCatalog lake =
                SkipprLakeCatalog.of(
                        AT, dir.resolve("lake").toString(), null, null, null, null, null);
        assertThat(lake.local()).isTrue();
        assertThat(lake.describe())
                .isEqualTo(
                        "the SkipprLake warehouse "
                                + dir.resolve("lake")
                                + " (catalog jdbc:sqlite:"
                                + dir.resolve("lake").resolve("_skippr_catalog.sqlite")
                                + ")");
    }

    @Test
    void anS3WarehouseWithoutASharedCatalogIsRefused() {
        assertThatThrownBy(
                        () ->
                                SkipprLakeCatalog.of(
                                        AT, "s3://acme-lake/iceberg", null, null, null, null, null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        AT
                                + "catalog_uri: an s3:// warehouse needs a shared catalog: set"
                                + " catalog_uri to a PostgreSQL database");
    }

    @Test
    void otherWarehouseSchemesAndNonJdbcCatalogsAreRefused() {
        assertThatThrownBy(() -> SkipprLakeCatalog.of(AT, "gs://b/p", null, null, null, null, null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        AT
                                + "warehouse: expected a local folder or s3://bucket/path, found gs://b/p");
        assertThatThrownBy(
                        () ->
                                SkipprLakeCatalog.of(
                                        AT,
                                        "/tmp/lake",
                                        "postgresql://h/db?password=hunter2",
                                        null,
                                        null,
                                        null,
                                        null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(AT + "catalog_uri: expected a JDBC URL")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void theDescriptionNamesNoCredential() {
        SkipprLakeCatalog lake =
                SkipprLakeCatalog.of(
                        AT,
                        "s3://acme-lake/iceberg/",
                        "jdbc:postgresql://catalog-db:5432/lake?ssl=true",
                        "skippr",
                        new Secret("s3cret"),
                        "http://127.0.0.1:9000",
                        "eu-west-1");
        assertThat(lake.warehouse()).isEqualTo("s3://acme-lake/iceberg");
        assertThat(lake.toString())
                .isEqualTo(
                        "the SkipprLake warehouse s3://acme-lake/iceberg (catalog"
                                + " jdbc:postgresql://catalog-db:5432/lake)")
                .doesNotContain("hunter2")
                .doesNotContain("s3cret");
    }

    @Test
    void aCatalogUriHoldingAPasswordIsRefusedWithoutShowingIt() {
        for (String uri :
                List.of(
                        "jdbc:postgresql://catalog-db:5432/lake?user=u&password=hunter2",
                        "jdbc:postgresql://u:hunter2@catalog-db:5432/lake")) {
            assertThatThrownBy(
                            () ->
                                    SkipprLakeCatalog.of(
                                            AT, "/tmp/lake", uri, null, null, null, null))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(
                            AT
                                    + "catalog_uri: holds a password; give it in catalog_password"
                                    + " (usually ${VAR}), which Skippr never prints")
                    .hasMessageNotContaining("hunter2");
        }
    }
}
