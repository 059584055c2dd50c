package io.skippr.sinks.motherduck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Secret;
import io.skippr.sinks.duckdb.DuckDbDatabase;
import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.WriteMode;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MotherDuck cannot be reached from here: these tests check how the connection is built (URL, token
 * only as a driver property, never in a message) and how a failed connect reads. The connect test
 * turns DuckDB's extension auto-install off, so the driver fails at once without trying to download
 * the MotherDuck extension or reach the service.
 */
class MotherDuckConnectionITCase {
    static final String TOKEN = "eyJhbGciOiJIUzI1NiJ9.secret-token-never-shown";

    @Test
    void theTokenTravelsAsADriverPropertyOnly() throws Exception {
        DuckDbDatabase db = MotherDuckDatabases.of("sales", new Secret(TOKEN));
        assertThat(db.url()).isEqualTo("jdbc:duckdb:md:sales").doesNotContain(TOKEN);
        assertThat(db.connectionProperties()).containsExactly(Map.entry("motherduck_token", TOKEN));
        assertThat(db.toString()).isEqualTo("MotherDuck database md:sales");
        assertThat(db.describe()).doesNotContain(TOKEN);
        assertThat(db.dialect().qualified("main", "orders")).isEqualTo("\"main\".\"orders\"");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(db); // it travels with the job graph
        }
        assertThat(bytes.toString(java.nio.charset.StandardCharsets.ISO_8859_1))
                .as("the serialized database, as the job graph carries it")
                .contains("md:sales")
                .doesNotContain(TOKEN);
        assertThat(db.failure("committing", new java.sql.SQLException("bad token " + TOKEN)))
                .hasMessageNotContaining(TOKEN)
                .hasMessageContaining("md:sales");
    }

    @Test
    void aDatabaseNameWithOptionsIsRefused() {
        assertThatThrownBy(
                        () -> MotherDuckDatabases.of("sales?motherduck_token=x", new Secret("t")))
                .hasMessageContaining("token field")
                .hasMessageNotContaining("=x");
        assertThatThrownBy(() -> MotherDuckDatabases.of(" ", new Secret("t")))
                .hasMessageContaining("database name");
    }

    @Test
    void aFailedConnectNamesTheDatabaseAndNotTheToken() {
        DuckDbDatabase built = MotherDuckDatabases.of("sales", new Secret(TOKEN));
        Map<String, String> offline = new HashMap<>();
        offline.put("autoinstall_known_extensions", "false");
        offline.put("autoload_known_extensions", "false");
        DuckDbDatabase db =
                new DuckDbDatabase(
                        built.url(),
                        built.describe(),
                        null,
                        offline,
                        Map.of(MotherDuckDatabases.TOKEN_PROPERTY, new Secret(TOKEN)));
        assertThatThrownBy(
                        () -> SqlSinks.prepare(db, "orders", "md", "main", true, WriteMode.APPEND))
                .isInstanceOf(SqlSinkException.class)
                .hasMessageContaining("while connecting on MotherDuck database md:sales")
                .hasMessageNotContaining(TOKEN)
                .satisfies(
                        e -> {
                            for (Throwable t = e; t != null; t = t.getCause()) {
                                assertThat(String.valueOf(t.getMessage())).doesNotContain(TOKEN);
                            }
                        });
    }
}
