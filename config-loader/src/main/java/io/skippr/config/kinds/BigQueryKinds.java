package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Google BigQuery. */
public final class BigQueryKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("BigQuery", "Google BigQuery", Guarantee.EXACTLY_ONCE)
                        .description("Loads tables into a BigQuery dataset")
                        .fields(
                                Field.string("project_id", "Google Cloud project").required(),
                                Field.string("dataset", "Dataset the tables are created in")
                                        .required(),
                                Field.string("location", "Dataset location").defaultsTo("US"),
                                Field.path(
                                        "credentials_file",
                                        "Service account key file (default: application default"
                                                + " credentials)"),
                                Field.string(
                                        "endpoint",
                                        "BigQuery REST API root URL, for tests and private"
                                                + " endpoints (default: Google)"),
                                Field.string(
                                        "write_endpoint",
                                        "host:port of the Storage Write API, for tests and private"
                                                + " endpoints; http://host:port for plain gRPC on"
                                                + " this machine (default: Google)"))
                        .build());
    }
}
