package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Databricks SQL warehouses. */
public final class DatabricksKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("Databricks", "Databricks", Guarantee.EXACTLY_ONCE)
                        .description("Loads Delta tables through a Databricks SQL warehouse")
                        .fields(
                                Field.string("server_hostname", "Workspace host name").required(),
                                Field.string(
                                                "http_path",
                                                "HTTP path of the SQL warehouse"
                                                        + " (/sql/1.0/warehouses/<id>)")
                                        .required(),
                                Field.string("access_token", "Personal access token")
                                        .required()
                                        .secret(),
                                Field.string("catalog", "Unity Catalog catalog").defaultsTo("main"),
                                Field.string("schema", "Schema the tables are created in")
                                        .defaultsTo("default"),
                                Field.string(
                                                "volume",
                                                "Unity Catalog volume of the schema that Skippr"
                                                        + " stages Parquet files in (created if"
                                                        + " absent)")
                                        .defaultsTo("skippr_staging"),
                                Field.string(
                                        "endpoint",
                                        "URL of the workspace's REST APIs, for tests and private"
                                                + " deployments (default:"
                                                + " https://<server_hostname>)"))
                        .build());
    }
}
