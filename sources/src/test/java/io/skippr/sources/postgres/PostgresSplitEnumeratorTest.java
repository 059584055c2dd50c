package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.sources.NoReaders;
import io.skippr.sources.ReaderTask;
import io.skippr.sources.RegisteredReaders;
import java.io.IOException;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The continuous enumerator and its readers' reports, driven by hand. */
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
        PostgresSplitEnumerator enumerator =
                new PostgresSplitEnumerator(
                        new NoReaders<>(),
                        continuous(),
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

    /**
     * Flink snapshots the enumerator before the readers: a reader that reports a finished split
     * between the two snapshots of a checkpoint keeps the report in its state until the enumerator
     * acknowledges it, and a restore from that checkpoint sends it again. So the split is no longer
     * outstanding (its table is polled again) and the late read it reports (a transaction in
     * progress while it read) is kept. On the first version the restored enumerator waited for the
     * split for ever, so the table was never polled again, and the late commit was never read.
     */
    @Test
    void aReportMadeBetweenTheEnumeratorsAndTheReadersSnapshotsIsSentAgainAfterARestore()
            throws Exception {
        PostgresSplit split = window("items#0");
        RegisteredReaders<PostgresSplit> coordinator = new RegisteredReaders<>(1);
        PostgresSplitEnumerator enumerator =
                new PostgresSplitEnumerator(coordinator, continuous(), handingOut(split));
        enumerator.handleSplitRequest(0, "localhost");
        ReaderTask task = new ReaderTask(0);
        PostgresEnumeratorState enumeratorState;
        List<PostgresSplit> readerState;
        try (Connection writer = PgTestDatabase.open();
                PostgresSourceReader reader = reader(task)) {
            long xid = writeInProgress(writer);
            reader.addSplits(coordinator.assigned(0));
            enumeratorState = enumerator.snapshotState(1);
            task.readUntilItSends(reader);
            assertThat(task.rows()).hasSize(3);
            task.deliver(enumerator); // acknowledged after the enumerator's snapshot
            readerState = reader.snapshotState(1); // ... so after the reader's snapshot
            writer.commit();

            // both restored from checkpoint 1
            RegisteredReaders<PostgresSplit> restoredCoordinator = new RegisteredReaders<>(1);
            PostgresSplitEnumerator restored =
                    new PostgresSplitEnumerator(
                            restoredCoordinator, continuous(), roundTrip(enumeratorState));
            ReaderTask restoredTask = new ReaderTask(0);
            try (PostgresSourceReader restoredReader = reader(restoredTask)) {
                restoredReader.addSplits(
                        readerState.stream().map(PostgresSplitEnumeratorTest::roundTrip).toList());
                restoredReader.start();
                restoredTask.deliver(restored);

                PostgresEnumeratorState after = restored.snapshotState(2);
                assertThat(after.outstanding()).isEmpty();
                assertThat(after.late().getOrDefault(table.stream(), List.of()))
                        .singleElement()
                        .satisfies(line -> assertThat(ReadEntry.parse(line).xids()).contains(xid));
                restoredCoordinator.deliver(0, restoredReader);
                assertThat(restoredReader.snapshotState(2)).isEmpty(); // acknowledged: forgotten
            }
        }
    }

    /**
     * A reader restarted alone (the enumerator keeps running) sends again a report the enumerator
     * took: it is acknowledged and not taken twice. Taken again, its late read was read twice.
     */
    @Test
    void aReportSentAgainByAReaderRestartedAloneIsTakenOnce() throws Exception {
        PostgresSplit split = window("items#0");
        RegisteredReaders<PostgresSplit> coordinator = new RegisteredReaders<>(1);
        PostgresSplitEnumerator enumerator =
                new PostgresSplitEnumerator(coordinator, continuous(), handingOut(split));
        enumerator.handleSplitRequest(0, "localhost");
        ReaderTask task = new ReaderTask(0);
        List<PostgresSplit> readerState;
        try (Connection writer = PgTestDatabase.open();
                PostgresSourceReader reader = reader(task)) {
            writeInProgress(writer);
            reader.addSplits(coordinator.assigned(0));
            task.readUntilItSends(reader);
            readerState = reader.snapshotState(1);
            task.deliver(enumerator);
            writer.commit();
        }
        coordinator.fail(0); // before the acknowledgement arrived
        enumerator.addSplitsBack(List.of(), 0); // nothing was handed to it since checkpoint 1
        coordinator.register(0);
        ReaderTask restartedTask = new ReaderTask(0);
        try (PostgresSourceReader restarted = reader(restartedTask)) {
            restarted.addSplits(readerState);
            restarted.start();
            restartedTask.deliver(enumerator);

            PostgresEnumeratorState after = enumerator.snapshotState(2);
            assertThat(after.outstanding()).isEmpty();
            assertThat(after.late().get(table.stream())).hasSize(1);
            coordinator.deliver(0, restarted);
            assertThat(restarted.snapshotState(2)).isEmpty();
        }
    }

    /** A split of cursor values (10, 20], with three rows in it. */
    private PostgresSplit window(String id) throws Exception {
        PgTestDatabase.exec(
                "INSERT INTO " + Sql.table(schema, "items") + " VALUES (1, 11), (2, 12), (3, 13)");
        return PostgresSplit.fresh(id, table, null, null, new CursorWindow("10", "20", false));
    }

    /**
     * Inserts a row in a transaction left open, then commits a later transaction (so the open one
     * is below the snapshots' xmax, in their list of transactions in progress); returns the open
     * transaction's id as rows' {@code xmin} hold it.
     */
    private long writeInProgress(Connection writer) throws Exception {
        writer.setAutoCommit(false);
        long xid;
        try (java.sql.Statement st = writer.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "INSERT INTO "
                                        + Sql.table(schema, "items")
                                        + " VALUES (4, 15) RETURNING xmin::text::int8")) {
            rs.next();
            xid = rs.getLong(1);
        }
        PgTestDatabase.exec("SELECT txid_current()");
        return xid;
    }

    /** A discovered continuous run's enumerator with {@code split} pending. */
    private PostgresEnumeratorState handingOut(PostgresSplit split) {
        return new PostgresEnumeratorState(
                true,
                List.of(table),
                Map.of(table.stream(), "20"),
                List.of(split),
                1,
                Map.of(),
                List.of(split.splitId()));
    }

    private PostgresSourceConfig continuous() {
        return new PostgresSourceConfig(
                PgTestDatabase.connection(),
                schema,
                List.of(),
                "v",
                false,
                Map.of(),
                100_000,
                2_000);
    }

    private static PostgresSourceReader reader(ReaderTask task) {
        return new PostgresSourceReader(
                PgTestDatabase.connection(), true, new Configuration(), task);
    }

    private static PostgresEnumeratorState roundTrip(PostgresEnumeratorState state)
            throws IOException {
        PostgresEnumeratorStateSerializer s = PostgresEnumeratorStateSerializer.INSTANCE;
        return s.deserialize(s.getVersion(), s.serialize(state));
    }

    private static PostgresSplit roundTrip(PostgresSplit split) {
        try {
            return PostgresSplitReaderTest.roundTrip(split);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
