package io.skippr.sources.postgres.cdc;

import io.skippr.core.postgres.PgDataSources;
import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.jdbc.PreferQueryMode;

/**
 * Logical replication connections (walsender sessions bound to the database): the replication
 * protocol's commands (CREATE_REPLICATION_SLOT, START_REPLICATION) run on them in the simple query
 * protocol.
 */
final class ReplicationConnections {
    static final String APPLICATION_NAME = "skippr-cdc";

    private ReplicationConnections() {}

    static Connection open(PostgresConnectionConfig config) throws SQLException {
        PGSimpleDataSource ds =
                PgDataSources.of(
                        config.host(),
                        config.port(),
                        config.database(),
                        config.user(),
                        config.password() == null ? null : config.password().reveal(),
                        config.sslmode(),
                        config.sslrootcert());
        ds.setReplication("database");
        ds.setAssumeMinServerVersion("10");
        ds.setPreferQueryMode(PreferQueryMode.SIMPLE);
        ds.setApplicationName(APPLICATION_NAME);
        return PgDataSources.connect(ds);
    }
}
