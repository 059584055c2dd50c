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
                                        .defaultsTo("dbo"))
                        .build());
    }
}
