package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The tables a PostgreSQL data source reads, discovered exactly as a run discovers them (the same
 * {@code schema}, {@code tables} patterns and cursor column): what {@code skipprd verify} compares.
 */
public final class PostgresTables {
    private PostgresTables() {}

    /**
     * @throws PostgresSourceException naming every table or pattern of the settings that does not
     *     exist, as a run would
     */
    public static List<TableInfo> discover(Connection c, PostgresSourceConfig config)
            throws SQLException {
        return PostgresCatalog.discover(
                c,
                config.connection().database(),
                config.schema(),
                config.tables(),
                config.cursorColumn());
    }
}
