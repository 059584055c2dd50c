package io.skippr.sinks.motherduck;

import io.skippr.config.Secret;
import io.skippr.sinks.duckdb.DuckDbDatabase;
import java.util.Map;

/**
 * MotherDuck as a DuckDB database: {@code jdbc:duckdb:md:<database>}, with the access token given
 * to the driver as the {@code motherduck_token} property only, never in the URL, a message or
 * {@code toString()} (which name {@code md:<database>}).
 */
public final class MotherDuckDatabases {
    /** The connection property DuckDB's MotherDuck extension reads the token from. */
    public static final String TOKEN_PROPERTY = "motherduck_token";

    private MotherDuckDatabases() {}

    public static DuckDbDatabase of(String database, Secret token) {
        if (database == null || database.isBlank()) {
            throw new IllegalArgumentException("a MotherDuck sink needs a database name");
        }
        if (database.contains("?") || database.contains("token")) {
            throw new IllegalArgumentException(
                    "the MotherDuck database field takes a database name only, not options: give"
                            + " the token in the token field");
        }
        String location = "md:" + database;
        return new DuckDbDatabase(
                "jdbc:duckdb:" + location,
                "MotherDuck database " + location,
                null,
                Map.of(),
                token == null ? Map.of() : Map.of(TOKEN_PROPERTY, token));
    }
}
