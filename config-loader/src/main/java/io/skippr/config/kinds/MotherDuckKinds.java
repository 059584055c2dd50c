package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** MotherDuck, DuckDB's hosted service. */
public final class MotherDuckKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("MotherDuck", "MotherDuck", Guarantee.EXACTLY_ONCE)
                        .description("Loads tables into a MotherDuck database")
                        .fields(
                                Field.string("database", "MotherDuck database name").required(),
                                Field.string("token", "MotherDuck access token")
                                        .required()
                                        .secret(),
                                Field.string("schema", "Schema the tables are created in")
                                        .defaultsTo("main"))
                        .build());
    }
}
