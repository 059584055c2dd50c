package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.ArrayList;
import java.util.List;

/** Amazon Athena over S3, its Glue schema sink, and Athena Iceberg tables. */
public final class AthenaKinds implements KindProvider {
    private static final List<Field> ATHENA =
            List.of(
                    CommonFields.S3_BUCKET,
                    CommonFields.S3_PREFIX,
                    Field.string("athena_workgroup_name", "Athena workgroup that runs queries")
                            .required(),
                    Field.string(
                                    "athena_results_s3_bucket",
                                    "S3 bucket where Athena writes query results")
                            .required(),
                    CommonFields.AWS_REGION,
                    Field.string(
                            "s3_endpoint",
                            "S3 endpoint URL, for S3-compatible stores (default: AWS)"));

    private static final Field GLUE_DATABASE =
            Field.string("glue_database_name", "Glue database that holds the tables").required();

    private static final Field GLUE_ENDPOINT =
            Field.string("glue_endpoint", "Glue endpoint URL (default: AWS)");

    @Override
    public List<KindSpec> kinds() {
        List<Field> glue = with(ATHENA, GLUE_DATABASE, GLUE_ENDPOINT);
        return List.of(
                KindSpec.dataSink("Athena", "Amazon Athena", Guarantee.EXACTLY_ONCE)
                        .description(
                                "Writes Parquet files to S3 for Athena, partitioned Hive-style")
                        .fields(ATHENA)
                        .schemaSinks("Glue")
                        .build(),
                KindSpec.schemaSink("Glue", "AWS Glue Data Catalog")
                        .description("Keeps Glue tables, columns and partitions in step")
                        .fields(glue)
                        .build(),
                KindSpec.dataSink("AthenaIceberg", "Amazon Athena Iceberg", Guarantee.EXACTLY_ONCE)
                        .description("Writes Iceberg tables on S3, cataloged in Glue, for Athena")
                        .fields(glue)
                        .paired()
                        .build(),
                KindSpec.schemaSink("AthenaIceberg", "Amazon Athena Iceberg")
                        .description("Keeps the Iceberg table schemas in Glue in step")
                        .fields(glue)
                        .paired()
                        .build());
    }

    private static List<Field> with(List<Field> base, Field... more) {
        List<Field> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all;
    }
}
