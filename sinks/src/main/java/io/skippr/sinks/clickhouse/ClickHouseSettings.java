package io.skippr.sinks.clickhouse;

import io.skippr.config.Secret;
import io.skippr.config.model.ResolvedSettings;
import java.io.Serializable;

/**
 * Where and how the ClickHouse sink writes. Prints without the password ({@link Secret} does).
 *
 * @param password null for none
 * @param batchRows send a stream's batch once it holds this many rows
 * @param batchBytes ... or this many bytes of TabSeparated text
 */
public record ClickHouseSettings(
        String host,
        int port,
        String user,
        Secret password,
        String database,
        boolean secure,
        int batchRows,
        int batchBytes)
        implements Serializable {

    public static final int DEFAULT_BATCH_ROWS = 100_000;
    public static final int DEFAULT_BATCH_BYTES = 16 * 1024 * 1024;

    public static ClickHouseSettings of(ResolvedSettings settings) {
        return new ClickHouseSettings(
                settings.requireString("host"),
                settings.integer("port").orElse(8123L).intValue(),
                settings.string("user").orElse("default"),
                settings.secret("password").orElse(null),
                settings.string("database").orElse("default"),
                settings.bool("secure"),
                DEFAULT_BATCH_ROWS,
                DEFAULT_BATCH_BYTES);
    }

    public ClickHouseSettings withBatchRows(int rows) {
        return new ClickHouseSettings(
                host, port, user, password, database, secure, rows, batchBytes);
    }

    /** {@code http://host:port}, for messages and requests. */
    public String address() {
        return (secure ? "https://" : "http://") + host + ":" + port;
    }
}
