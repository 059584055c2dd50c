package io.skippr.config.kinds;

import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Standard output, one JSON line per record. */
public final class StdoutKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("Stdout", "Standard output", Guarantee.AT_LEAST_ONCE)
                        .description("Prints each record as one JSON line")
                        .build());
    }
}
