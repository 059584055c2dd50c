package io.skippr.sources.postgres;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SourceContext;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * Everything the Postgres source needs, resolved from a data source entry. It travels inside the
 * job graph, so it is Serializable; {@link #toString()} never shows the password.
 *
 * @param connection the server and login
 * @param schema the schema whose tables are read
 * @param tables table names and {@code *}/{@code ?} patterns; empty for every table
 * @param cursorColumn the incremental cursor column, or null
 * @param bounded true to read once and finish; false to keep polling for new cursor values
 * @param startPositions per table, the committed cursor value (text) to read above
 * @param targetRowsPerSplit roughly how many rows a key-range split holds
 * @param pollIntervalMillis how often continuous mode looks for new cursor values
 * @param cdc the slot and publication of {@code replication_method: cdc}; null for cursor and full
 *     reads
 */
public record PostgresSourceConfig(
        PostgresConnectionConfig connection,
        String schema,
        List<String> tables,
        String cursorColumn,
        boolean bounded,
        Map<String, String> startPositions,
        long targetRowsPerSplit,
        long pollIntervalMillis,
        CdcSettings cdc)
        implements Serializable {

    public static final long DEFAULT_TARGET_ROWS_PER_SPLIT = 100_000;
    public static final long DEFAULT_POLL_INTERVAL_MILLIS = 2_000;

    /** The record without change data capture, as before it had {@link #cdc}. */
    public PostgresSourceConfig(
            PostgresConnectionConfig connection,
            String schema,
            List<String> tables,
            String cursorColumn,
            boolean bounded,
            Map<String, String> startPositions,
            long targetRowsPerSplit,
            long pollIntervalMillis) {
        this(
                connection,
                schema,
                tables,
                cursorColumn,
                bounded,
                startPositions,
                targetRowsPerSplit,
                pollIntervalMillis,
                null);
    }

    public PostgresSourceConfig {
        tables = List.copyOf(tables);
        startPositions = Map.copyOf(startPositions);
        if (targetRowsPerSplit < 1 || pollIntervalMillis < 1) {
            throw new IllegalArgumentException(
                    "targetRowsPerSplit and pollIntervalMillis must be positive");
        }
    }

    /** The source of a data source entry, with the defaults of the connector catalog. */
    public static PostgresSourceConfig from(SourceContext context) {
        ResolvedSettings s = context.settings();
        PostgresConnectionConfig connection =
                new PostgresConnectionConfig(
                        s.requireString("host"),
                        Math.toIntExact(s.integer("port").orElse(5432L)),
                        s.requireString("database"),
                        s.requireString("user"),
                        s.secret("password").orElse(null),
                        s.string("sslmode").orElse("prefer"),
                        s.string("sslrootcert").orElse(null));
        String cursorColumn = s.string("cursor_column").filter(c -> !c.isEmpty()).orElse(null);
        return new PostgresSourceConfig(
                connection,
                s.string("schema").orElse("public"),
                s.list("tables"),
                cursorColumn,
                context.bounded(),
                context.startPositions(),
                DEFAULT_TARGET_ROWS_PER_SPLIT,
                DEFAULT_POLL_INTERVAL_MILLIS,
                CdcSettings.of(context, cursorColumn));
    }

    /** A config with the defaults, for tests and the Java API. */
    public static PostgresSourceConfig of(
            PostgresConnectionConfig connection,
            String schema,
            List<String> tables,
            String cursorColumn,
            boolean bounded,
            Map<String, String> startPositions) {
        return new PostgresSourceConfig(
                connection,
                schema,
                tables,
                cursorColumn,
                bounded,
                startPositions,
                DEFAULT_TARGET_ROWS_PER_SPLIT,
                DEFAULT_POLL_INTERVAL_MILLIS);
    }

    public PostgresSourceConfig withTargetRowsPerSplit(long rows) {
        return new PostgresSourceConfig(
                connection,
                schema,
                tables,
                cursorColumn,
                bounded,
                startPositions,
                rows,
                pollIntervalMillis,
                cdc);
    }

    /** Whether this reads the tables' changes from a replication slot. */
    public boolean isCdc() {
        return cdc != null;
    }

    public PostgresSourceConfig withPollIntervalMillis(long millis) {
        return new PostgresSourceConfig(
                connection,
                schema,
                tables,
                cursorColumn,
                bounded,
                startPositions,
                targetRowsPerSplit,
                millis,
                cdc);
    }
}
