package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.LoadProbe;
import io.skippr.core.spi.RowCheck;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.WriteMode;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SQL sinks' load probe against rules a user put on the target: it names exactly the rows
 * PostgreSQL refuses, in the server's words, and leaves the target as it was.
 */
class PostgresLoadProbeITCase {
    private TestPg pg;

    @BeforeEach
    void schema() throws Exception {
        pg = new TestPg();
        TestPg.exec(
                "CREATE SCHEMA " + TestPg.quote(pg.schema),
                "CREATE TABLE "
                        + pg.table("orders")
                        + " (id bigint PRIMARY KEY, amount int, CONSTRAINT amount_not_negative"
                        + " CHECK (amount >= 0))",
                "CREATE UNIQUE INDEX orders_amount ON " + pg.table("orders") + " (amount)",
                "CREATE FUNCTION "
                        + TestPg.quote(pg.schema)
                        + ".no_13() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.id = 13"
                        + " THEN RAISE EXCEPTION 'order 13 is on hold'; END IF; RETURN NEW; END $$",
                "CREATE TRIGGER no_13 BEFORE INSERT ON "
                        + pg.table("orders")
                        + " FOR EACH ROW EXECUTE FUNCTION "
                        + TestPg.quote(pg.schema)
                        + ".no_13()",
                "INSERT INTO " + pg.table("orders") + " VALUES (1000, 77)");
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    private LoadProbe probe(WriteMode mode) {
        SqlSinkSettings settings = pg.prepare("p", false, mode);
        return SqlSinks.sink(settings, RowCheck.NONE, FailPoint.NONE).loadProbe();
    }

    /** Rows 1..100 with amount = id, but for the ones that break a rule. */
    private static List<Row> batch() {
        List<Row> rows = new ArrayList<>();
        for (long id = 1; id <= 100; id++) {
            int amount = id == 5 ? -1 : id == 40 ? 30 : (int) id;
            rows.add(PostgresCommitterITCase.row(id, amount, Operation.INSERT));
        }
        return rows;
    }

    @Test
    void exactlyTheRowsTheTargetRefusesAreNamedWithTheServersWordsAndTheTargetIsUntouched()
            throws Exception {
        for (WriteMode mode : List.of(WriteMode.APPEND, WriteMode.MERGE)) {
            try (LoadProbe.Session session = probe(mode).open(0)) {
                assertThat(session.probes(PostgresCommitterITCase.ORDERS)).isTrue();
                Map<Integer, String> refused =
                        session.refused(PostgresCommitterITCase.ORDERS, batch());
                assertThat(refused)
                        .as(mode + ": rows 5, 13, 40 (amount 30 like row 30) and 77 (like 1000)")
                        .containsOnlyKeys(4, 12, 39, 76);
                assertThat(refused.get(4))
                        .isEqualTo(
                                "new row for relation \"orders\" violates check constraint"
                                        + " \"amount_not_negative\"");
                assertThat(refused.get(12)).isEqualTo("order 13 is on hold");
                assertThat(refused.get(39))
                        .isEqualTo(
                                "duplicate key value violates unique constraint \"orders_amount\"");
                assertThat(refused.get(76))
                        .isEqualTo(
                                "duplicate key value violates unique constraint \"orders_amount\"");
            }
        }
        assertThat(TestPg.rows("SELECT id, amount FROM " + pg.table("orders")))
                .containsExactly(List.of("1000", "77"));
        assertThat(
                        TestPg.rows(
                                "SELECT column_name FROM information_schema.columns WHERE"
                                        + " table_schema = '"
                                        + pg.schema
                                        + "' AND table_name = 'orders'"))
                .as("the probe's ALTER TABLE was rolled back too")
                .hasSize(2);
    }

    @Test
    void aTableSkipprMadeIsNotProbed() throws Exception {
        TestPg.exec("CREATE TABLE " + pg.table("plain") + " (id bigint PRIMARY KEY, amount int)");
        var plain =
                new io.skippr.core.record.StreamSchema(
                        "plain", PostgresCommitterITCase.ORDERS.columns(), List.of("id"), "id");
        try (LoadProbe.Session session = probe(WriteMode.APPEND).open(0)) {
            assertThat(session.probes(plain)).isFalse();
        }
    }

    /**
     * A row held by a transaction in flight (a commit of the run): the probe gives up on the batch
     * after its lock timeout instead of stalling the writer; the commit is then the judge.
     */
    @Test
    void aLockHeldByACommitInFlightMakesTheProbeGiveUpRatherThanWait() throws Exception {
        try (Connection holder = TestPg.connect()) {
            holder.setAutoCommit(false);
            holder.createStatement()
                    .execute("INSERT INTO " + pg.table("orders") + " VALUES (2000, 50)");
            try (LoadProbe.Session session = probe(WriteMode.APPEND).open(0)) {
                long start = System.nanoTime();
                assertThat(session.refused(PostgresCommitterITCase.ORDERS, batch())).isEmpty();
                assertThat((System.nanoTime() - start) / 1_000_000_000L).isLessThan(30);
            }
            holder.rollback();
        }
    }
}
