package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Google Cloud Storage. */
public final class GcsKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("GCS", "Google Cloud Storage", Guarantee.EXACTLY_ONCE)
                        .description("Writes files to a GCS bucket")
                        .fields(
                                Field.string("bucket", "Bucket the files are written to")
                                        .required(),
                                Field.string(
                                        "prefix", "Object name prefix, without a trailing slash"),
                                Field.string(
                                        "project_id",
                                        "Google Cloud project (default: from"
                                                + " the credentials)"),
                                Field.path(
                                        "credentials_file",
                                        "Service account key file (default: application default"
                                                + " credentials)"),
                                Field.string(
                                        "endpoint",
                                        "GCS JSON API endpoint, for tests and private endpoints"
                                                + " (default: Google); plain http only on"
                                                + " localhost, and then without credentials"),
                                CommonFields.FORMAT,
                                CommonFields.COMPRESSION,
                                CommonFields.ROLL_SIZE_MB,
                                CommonFields.ROLL_INTERVAL_SECONDS)
                        .build());
    }
}
