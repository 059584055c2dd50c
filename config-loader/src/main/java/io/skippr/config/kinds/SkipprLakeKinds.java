package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** SkipprLake: Iceberg tables under a warehouse path with a JDBC catalog. */
public final class SkipprLakeKinds implements KindProvider {
    private static final List<Field> FIELDS =
            List.of(
                    Field.string(
                                    "warehouse",
                                    "Warehouse location: a local folder or s3://bucket/path")
                            .required(),
                    Field.string(
                            "catalog_uri",
                            "JDBC URL of the Iceberg catalog (default: an embedded catalog in the"
                                    + " warehouse)"),
                    Field.string("catalog_user", "User of the catalog database"),
                    Field.string("catalog_password", "Password of the catalog database").secret(),
                    Field.string("namespace", "Iceberg namespace of the tables")
                            .defaultsTo("skippr"),
                    Field.integer("target_file_size_mb", "Target size of data files, in MiB")
                            .defaultsTo(128),
                    Field.bool("compact", "Compact small files after each commit")
                            .defaultsTo(false),
                    Field.string("s3_endpoint", "S3 endpoint URL, for S3-compatible stores"),
                    CommonFields.AWS_REGION);

    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("SkipprLake", "SkipprLake", Guarantee.EXACTLY_ONCE)
                        .description("Writes Iceberg tables to Skippr's own lake")
                        .fields(FIELDS)
                        .paired()
                        .build(),
                KindSpec.schemaSink("SkipprLake", "SkipprLake")
                        .description("Keeps SkipprLake table schemas in step")
                        .fields(FIELDS)
                        .paired()
                        .build());
    }
}
