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
                                Field.bool("ssl", "Connect with TLS").defaultsTo(true),
                                Field.string("s3_bucket", "S3 bucket for staging files").required(),
                                Field.string(
                                        "iam_role",
                                        "IAM role ARN that COPY assumes (default: COPY signs with"
                                                + " the AWS credentials Skippr stages with)"),
                                CommonFields.AWS_REGION,
                                Field.string(
                                        "endpoint",
                                        "Endpoint URL of the staging bucket's store, for Skippr's"
                                                + " own S3 requests (default: AWS); COPY reads"
                                                + " the s3:// URL from AWS"),
                                Field.bool(
                                                "path_style_access",
                                                "Address the bucket in the path, not the host name")
                                        .defaultsTo(false))
                        .build());
    }
}
