package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Row;
import io.skippr.sources.ReaderTask;
import io.skippr.sources.postgres.cdc.SlotSnapshot;
import io.skippr.sources.postgres.cdc.Slots;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CDC reader's gauge {@code skippr.replicationLagSeconds} on a real slot: -1 before the stream
 * read anything, 0 once it read everything, the age of the last emitted transaction's commit while
 * a committed transaction waits (growing with the clock while the reader is not polled), and 0
 * again once it caught up.
 */
class ReplicationLagITCase {
    private static final String LAG = "skippr.replicationLagSeconds";
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final PostgresConnectionConfig connection = PgTestDatabase.connection();
    private String schema;

    @BeforeEach
    void createTable() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_lag_");
        PgTestDatabase.exec(
                "CREATE TABLE " + Sql.quote(schema) + ".t (id int PRIMARY KEY, v text)");
    }

    @AfterEach
    void dropAll() throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            // the walsender of the closed stream may outlive it for a moment
            waitUntil(
                    () -> !slotActive(),
                    "slot " + schema + " released by the closed stream's walsender");
            Slots.dropSlot(c, schema);
            Slots.dropPublication(c, schema);
        }
        PgTestDatabase.dropSchema(schema);
    }

    @Test
    void lagGrowsWhileTheReaderIsBehindAndDropsToZeroOnceItCaughtUp() throws Exception {
        List<TableInfo> tables;
        try (Connection c = PgTestDatabase.open()) {
            tables = PostgresCatalog.discover(c, connection.database(), schema, List.of("t"), null);
            Slots.ensurePublication(c, schema, List.of(new Slots.TableName(schema, "t")));
        }
        long point;
        try (SlotSnapshot created = Slots.createSlot(connection, schema, DEADLINE)) {
            point = created.consistentPoint();
        }
        PostgresSourceConfig config =
                new PostgresSourceConfig(
                        connection,
                        schema,
                        List.of("t"),
                        null,
                        false,
                        Map.of(),
                        PostgresSourceConfig.DEFAULT_TARGET_ROWS_PER_SPLIT,
                        PostgresSourceConfig.DEFAULT_POLL_INTERVAL_MILLIS,
                        new CdcSettings(schema, schema, null, 1L << 30));
        ReaderTask task = new ReaderTask(0);
        try (CdcSourceReader reader = new CdcSourceReader(task, config)) {
            assertThat(task.metrics().gauge(LAG)).isEqualTo(-1L);
            reader.addSplits(List.of(CdcSplit.stream(tables, point, 0, -1)));
            // the stream opens and asks the enumerator for added tables; it answers none
            task.poll(reader);
            assertThat(task.sent()).hasOnlyElementsOfType(StreamOpened.class).isNotEmpty();
            reader.handleSourceEvents(CdcTablesEvent.of(CdcAddedTables.NONE));
            pollUntil(task, reader, () -> lag(task) == 0, "lag 0 with nothing committed");

            String t = Sql.quote(schema) + ".t";
            PgTestDatabase.exec("INSERT INTO " + t + " VALUES (1, 'a')");
            PgTestDatabase.exec("INSERT INTO " + t + " VALUES (2, 'b')");
            pollUntil(task, reader, () -> !task.rows().isEmpty(), "the first transaction's row");
            assertThat(ids(task)).containsExactly(1);
            long behind = lag(task);
            assertThat(behind).isBetween(0L, 30L);

            // not polled, the reader stays behind the second transaction: its lag grows
            waitUntil(() -> lag(task) >= behind + 2, "lag " + (behind + 2) + " s or more");

            pollUntil(
                    task,
                    reader,
                    () -> task.rows().size() == 2 && lag(task) == 0,
                    "both rows read and lag 0");
            assertThat(ids(task)).containsExactly(1, 2);
        }
    }

    private static long lag(ReaderTask task) {
        return (Long) task.metrics().gauge(LAG);
    }

    private static List<Integer> ids(ReaderTask task) {
        return task.rows().stream().map(ReplicationLagITCase::id).toList();
    }

    private static int id(Row row) {
        return ((Number) row.values()[0]).intValue();
    }

    private boolean slotActive() {
        try (Connection c = PgTestDatabase.open();
                var s =
                        c.prepareStatement(
                                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ?"
                                        + " AND active")) {
            s.setString(1, schema);
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Polls {@code reader} once at a time until {@code done}, for at most {@link #DEADLINE}. */
    private static void pollUntil(
            ReaderTask task, CdcSourceReader reader, BooleanSupplier done, String what)
            throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + DEADLINE.toSeconds() + " s: " + what);
            }
            task.poll(reader);
        }
    }

    /** Waits, without polling any reader, until {@code done}, for at most {@link #DEADLINE}. */
    private static void waitUntil(BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + DEADLINE.toSeconds() + " s: " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
}
