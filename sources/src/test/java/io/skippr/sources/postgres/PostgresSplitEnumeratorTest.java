package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.sources.NoReaders;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The continuous enumerator driven by hand. */
class PostgresSplitEnumeratorTest {
    private String schema;
    private TableInfo table;

    @BeforeEach
    void createTable() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_enum_");
        PgTestDatabase.exec(
                "CREATE TABLE "
                        + Sql.table(schema, "items")
                        + " (id bigint PRIMARY KEY, v bigint)");
        try (Connection c = PgTestDatabase.open()) {
            table = PostgresCatalog.describe(c, schema, "items", "v");
        }
    }

    @AfterEach
    void dropSchema() throws Exception {
        PgTestDatabase.dropSchema(schema);
    }

    /**
     * A reader fails after it reported a split read: its rows since the last checkpoint are rolled
     * back, so the split is outstanding again (its table is not polled while it is read again) and
     * the late read its report added is dropped (the read again reports its own, from a new
     * snapshot). On the first version neither happened: the table could be polled past a window
     * being read again, and rows of a transaction the read again sees were read twice.
     */
    @Test
    void aSplitGivenBackIsOutstandingAgainAndItsRolledBackLateReadIsDropped() {
        PostgresSplit split =
                PostgresSplit.fresh(
                        "items#3", table, null, null, new CursorWindow("10", "20", false));
        String reported = new ReadEntry("20", null, null, List.of(77L)).toLine();
        String earlier = new ReadEntry("10", null, null, List.of(55L)).toLine();
        PostgresSourceConfig config =
                new PostgresSourceConfig(
                        PgTestDatabase.connection(),
                        schema,
                        List.of(),
                        "v",
                        false,
                        Map.of(),
                        100_000,
                        2_000,
                        2_000);
        PostgresSplitEnumerator enumerator =
                new PostgresSplitEnumerator(
                        new NoReaders<>(),
                        config,
                        new PostgresEnumeratorState(
                                true,
                                List.of(table),
                                Map.of(table.stream(), "20"),
                                List.of(),
                                4,
                                Map.of(table.stream(), List.of(earlier, reported)),
                                List.of()));

        enumerator.addSplitsBack(List.of(split), 0);

        PostgresEnumeratorState state = enumerator.snapshotState(1);
        assertThat(state.outstanding()).containsExactly("items#3");
        assertThat(state.pending()).containsExactly(split);
        assertThat(state.late()).containsEntry(table.stream(), List.of(earlier));
    }
}
