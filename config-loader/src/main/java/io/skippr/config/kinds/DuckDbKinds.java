package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** DuckDB: a paired data sink and schema sink over one database file. */
public final class DuckDbKinds implements KindProvider {
    private static final List<Field> FIELDS =
            List.of(
                    Field.path("path", "DuckDB database file (created if missing)").required(),
                    Field.string("schema", "Schema the tables are created in").defaultsTo("main"));

    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("DuckDB", "DuckDB", Guarantee.EXACTLY_ONCE)
                        .description("Loads tables into a DuckDB database file")
                        .fields(FIELDS)
                        .paired()
                        .build(),
                KindSpec.schemaSink("DuckDB", "DuckDB")
                        .description("Keeps DuckDB table definitions in step with source schemas")
                        .fields(FIELDS)
                        .paired()
                        .build());
    }
}
