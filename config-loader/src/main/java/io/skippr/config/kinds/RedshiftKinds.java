package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Amazon Redshift, loaded through S3 staging files and COPY. */
public final class RedshiftKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("Redshift", "Amazon Redshift", Guarantee.EXACTLY_ONCE)
                        .description("Loads tables into Redshift via staged files and COPY")
                        .fields(
                                Field.string("host", "Cluster endpoint host name").required(),
                                Field.integer("port", "Cluster port").defaultsTo(5439),
                                Field.string("user", "User to log in as").required(),
                                Field.string("password", "Password of the user").secret(),
                                Field.string("database", "Database to connect to").required(),
                                Field.string("schema", "Schema the tables are created in")
                                        .defaultsTo("public"),
                                Field.string("s3_bucket", "S3 bucket for staging files"),
                                Field.string("iam_role", "IAM role ARN that COPY assumes"),
                                CommonFields.AWS_REGION)
                        .build());
    }
}
