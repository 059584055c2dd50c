package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A change's key after a split's resume key, asked of the server: the same answer as the split's
 * own query gives for the row of that key, under each key column's collation.
 */
class ServerKeyOrderITCase {
    private static final List<String> KEYS = List.of("a", "B", "b", "ä", "A", "c", "Z");

    private String schema;

    @BeforeEach
    void tables() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_keyorder_");
        String s = Sql.quote(schema);
        PgTestDatabase.exec(
                "CREATE TABLE " + s + ".icu (k text COLLATE \"en-x-icu\" PRIMARY KEY, v int)",
                "CREATE TABLE " + s + ".bytes (k text COLLATE \"C\" PRIMARY KEY, v int)",
                "CREATE TABLE "
                        + s
                        + ".pair (k text COLLATE \"en-x-icu\", n int, v int,"
                        + " PRIMARY KEY (k, n))");
        for (String key : KEYS) {
            String literal = SplitQuery.literal(key);
            PgTestDatabase.exec(
                    "INSERT INTO " + s + ".icu VALUES (" + literal + ", 1)",
                    "INSERT INTO " + s + ".bytes VALUES (" + literal + ", 1)",
                    "INSERT INTO "
                            + s
                            + ".pair VALUES ("
                            + literal
                            + ", 1, 1), ("
                            + literal
                            + ", 7, 1)");
        }
    }

    @AfterEach
    void drop() throws Exception {
        PgTestDatabase.dropSchema(schema);
    }

    private TableInfo table(String name) throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            return PostgresCatalog.discover(
                            c, PgTestDatabase.connection().database(), schema, List.of(name), null)
                    .get(0);
        }
    }

    /** The keys (as text, joined by '/') a split's query resuming after {@code last} reads. */
    private static List<String> splitReads(TableInfo table, List<String> last) throws Exception {
        List<Object> params = new ArrayList<>();
        String where = RowOrder.of(table).compare(SplitQuery.ALIAS, last, ">", params);
        String keys =
                String.join(
                        " || '/' || ",
                        table.primaryKey().stream()
                                .map(k -> SplitQuery.column(k) + "::text")
                                .toList());
        List<String> read = new ArrayList<>();
        try (Connection c = PgTestDatabase.open();
                PreparedStatement st =
                        c.prepareStatement(
                                "SELECT "
                                        + keys
                                        + " FROM "
                                        + table.qualifiedName()
                                        + " AS "
                                        + SplitQuery.ALIAS
                                        + " WHERE "
                                        + where)) {
            SplitQuery.bind(st, params);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    read.add(rs.getString(1));
                }
            }
        }
        return read;
    }

    private static List<String> serverAfter(
            ServerKeyOrder order, TableInfo table, List<List<String>> keys, List<String> last)
            throws Exception {
        List<String> after = new ArrayList<>();
        for (List<String> key : keys) {
            if (order.after(table, key, last)) {
                after.add(String.join("/", key));
            }
        }
        return after;
    }

    @Test
    void aKeyIsAfterTheResumeKeyExactlyWhenTheSplitsQueryReadsIt() throws Exception {
        try (ServerKeyOrder order = new ServerKeyOrder(PgTestDatabase.connection())) {
            List<List<String>> single = KEYS.stream().map(List::of).toList();
            TableInfo icu = table("icu");
            TableInfo bytes = table("bytes");
            // "a" sorts before "B" in en-x-icu, after it in C: the column's collation decides
            assertThat(serverAfter(order, icu, single, List.of("B")))
                    .containsExactlyInAnyOrderElementsOf(splitReads(icu, List.of("B")))
                    .doesNotContain("a")
                    .contains("c", "Z");
            assertThat(serverAfter(order, bytes, single, List.of("B")))
                    .containsExactlyInAnyOrderElementsOf(splitReads(bytes, List.of("B")))
                    .contains("a", "c", "Z")
                    .doesNotContain("A");
            TableInfo pair = table("pair");
            List<List<String>> pairs = new ArrayList<>();
            for (String key : KEYS) {
                pairs.add(List.of(key, "1"));
                pairs.add(List.of(key, "7"));
            }
            assertThat(serverAfter(order, pair, pairs, List.of("b", "1")))
                    .containsExactlyInAnyOrderElementsOf(splitReads(pair, List.of("b", "1")))
                    .contains("b/7")
                    .doesNotContain("b/1", "a/7");
        }
    }
}
