package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Azure Synapse Analytics dedicated SQL pools. */
public final class SynapseKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("Synapse", "Azure Synapse Analytics", Guarantee.EXACTLY_ONCE)
                        .description("Loads tables into a Synapse SQL pool")
                        .fields(
                                Field.string("host", "SQL endpoint host name").required(),
                                Field.integer("port", "SQL endpoint port").defaultsTo(1433),
                                Field.string("user", "User to log in as").required(),
                                Field.string("password", "Password of the user").secret(),
                                Field.string("database", "SQL pool database").required(),
                                Field.string("schema", "Schema the tables are created in")
                                        .defaultsTo("dbo"),
                                Field.bool(
                                                "encrypt",
                                                "Encrypt the connection (TLS); false only for"
                                                        + " tests")
                                        .defaultsTo(true),
                                Field.string(
                                                "storage_account",
                                                "Storage account whose container Skippr stages"
                                                        + " Parquet files in")
                                        .required(),
                                Field.string(
                                                "storage_container",
                                                "Blob container the files are staged in")
                                        .required(),
                                Field.string(
                                                "storage_account_key",
                                                "Key of the storage account: Skippr uploads with"
                                                        + " it and COPY INTO reads with it")
                                        .required()
                                        .secret(),
                                Field.string(
                                        "storage_endpoint",
                                        "Blob service URL, for tests and private endpoints"
                                                + " (default:"
                                                + " https://<storage_account>.blob.core.windows.net)"),
                                Field.choice(
                                                "distribution",
                                                "How the tables Skippr creates are distributed:"
                                                        + " round_robin, or hash (tables loaded"
                                                        + " with write_mode merge by hash of their"
                                                        + " first key column, others round_robin)",
                                                "round_robin",
                                                "hash")
                                        .defaultsTo("round_robin"))
                        .build());
    }
}
