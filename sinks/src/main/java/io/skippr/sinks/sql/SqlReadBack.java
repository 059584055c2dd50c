package io.skippr.sinks.sql;

import io.skippr.config.model.ResolvedSettings;

/**
 * A SQL data sink whose target tables can be read back ({@code skipprd verify}): its database as
 * the sink's settings name it, opened for reading only where the database allows it, and the schema
 * its target tables live in. Table and column names come from {@link SqlDialect#names()}.
 */
public interface SqlReadBack {
    /** The database of a data sink with {@code settings}, for reading; connects to nothing yet. */
    SqlDatabase readOnly(ResolvedSettings settings);

    /** The schema holding the target tables. */
    String schema(ResolvedSettings settings);
}
