// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.catalog.Role;

/** Standard output data sink. Prints each record as one JSON line. */
public final class DataSinkStdout extends Connector<DataSinkStdout> {
    public DataSinkStdout() {
        super(Role.DATA_SINK, "Stdout");
    }
}
