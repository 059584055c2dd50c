package io.skippr.sources.postgres.cdc;

import io.skippr.core.record.DataType;
import io.skippr.sources.postgres.PostgresCatalog;
import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Types of change columns as the snapshot types them: built-in types by their fixed oid ({@link
 * BuiltinTypes}), any other (a domain) asked of the catalog once, on a connection of its own opened
 * when first needed (the replication connection cannot query while it streams).
 */
final class CatalogTypes implements TypeLookup, AutoCloseable {
    private final PostgresConnectionConfig config;
    private final Map<Long, DataType> known = new HashMap<>();
    private Connection connection;

    CatalogTypes(PostgresConnectionConfig config) {
        this.config = config;
    }

    @Override
    public DataType type(int typeOid, int typmod) throws SQLException {
        DataType builtin = BuiltinTypes.known(typeOid, typmod);
        if (builtin != null) {
            return builtin;
        }
        long key = ((long) typeOid << 32) | (typmod & 0xffffffffL);
        DataType type = known.get(key);
        if (type == null) {
            type = PostgresCatalog.dataType(connection(), typeOid & 0xffffffffL, typmod);
            known.put(key, type);
        }
        return type;
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            try {
                connection = config.connect();
            } catch (IOException e) {
                throw new SQLException(e.getMessage(), e);
            }
        }
        return connection;
    }

    @Override
    public void close() {
        PostgresConnectionConfig.closeQuietly(connection);
    }
}
