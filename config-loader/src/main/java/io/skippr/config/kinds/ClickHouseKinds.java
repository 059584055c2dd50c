package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** ClickHouse over its HTTP interface. */
public final class ClickHouseKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("ClickHouse", "ClickHouse", Guarantee.DEDUPLICATED)
                        .description("Loads tables into ClickHouse over its HTTP interface")
                        .fields(
                                Field.string("host", "ClickHouse server host name").required(),
                                Field.integer("port", "HTTP interface port").defaultsTo(8123),
                                Field.string("user", "User to log in as").defaultsTo("default"),
                                Field.string("password", "Password of the user").secret(),
                                Field.string("database", "Database the tables are created in")
                                        .defaultsTo("default"),
                                Field.bool("secure", "Use HTTPS").defaultsTo(false))
                        .build());
    }
}
