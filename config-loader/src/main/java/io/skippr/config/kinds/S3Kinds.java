package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Amazon S3 and S3-compatible stores; credentials come from the standard AWS chain. */
public final class S3Kinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("S3", "Amazon S3", Guarantee.EXACTLY_ONCE)
                        .description("Writes files to an S3 bucket")
                        .fields(
                                CommonFields.S3_BUCKET,
                                CommonFields.S3_PREFIX,
                                CommonFields.AWS_REGION,
                                Field.string(
                                        "endpoint",
                                        "Endpoint URL, for S3-compatible stores (default: AWS)"),
                                Field.bool(
                                                "path_style_access",
                                                "Address the bucket in the path, not the host name")
                                        .defaultsTo(false),
                                CommonFields.FORMAT,
                                CommonFields.COMPRESSION,
                                CommonFields.ROLL_SIZE_MB,
                                CommonFields.ROLL_INTERVAL_SECONDS)
                        .build());
    }
}
