package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a snapshot could not see: the transactions it lists, and their savepoints. */
class SeenTest {
    private String schema;
    private String table;

    @BeforeEach
    void createTable() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_seen_");
        table = Sql.table(schema, "t");
        PgTestDatabase.exec("CREATE TABLE " + table + " (id int PRIMARY KEY)");
    }

    @AfterEach
    void dropSchema() throws Exception {
        PgTestDatabase.dropSchema(schema);
    }

    /**
     * A transaction in progress with a released savepoint: the snapshot names both. When the
     * savepoint was missed because its transaction ended between the snapshot and the question (as
     * {@link #ambiguousAfter} can tell), the table tells it apart from a transaction that committed
     * before the snapshot with a higher id: the savepoint is counted, the other not.
     */
    @Test
    void savepointsOfATransactionInProgressAreSeenAndTheTableResolvesAMissedOne() throws Exception {
        try (Connection writer = PgTestDatabase.open();
                Connection reader = PgTestDatabase.open()) {
            writer.setAutoCommit(false);
            long top = insert(writer, 1);
            PgTestDatabase.execIn(writer, "SAVEPOINT a");
            long savepoint = insert(writer, 2);
            PgTestDatabase.execIn(writer, "RELEASE SAVEPOINT a");
            long before = committedInsert(3); // committed before the snapshot, above both
            reader.setAutoCommit(false);
            reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);

            Seen seen = Seen.of(reader);
            assertThat(seen.listed()).contains(top).doesNotContain(savepoint, before);
            assertThat(seen.savepoints()).contains(savepoint).doesNotContain(before, top);
            assertThat(seen.inProgress()).contains(ReadEntry.xid(top), ReadEntry.xid(savepoint));
            assertThat(seen.endedSince(reader)).as("the transaction still runs").isNull();

            writer.commit();
            Seen missed = new Seen(seen.xmax(), seen.listed(), List.of(), seen.lastCommitted());
            Long ended = missed.endedSince(reader);
            assertThat(ended).isEqualTo(top);
            assertThat(missed.ambiguousAfter(ended)).isTrue();
            Seen resolved =
                    missed.resolved(
                            reader,
                            PostgresSplit.fresh("t#0", describe(), null, null, null),
                            ended);
            assertThat(resolved.savepoints()).contains(savepoint).doesNotContain(before);
            reader.rollback();
        }
    }

    /**
     * With no savepoint in progress, the highest id that committed is still known: it is what tells
     * that a listed transaction which ended meanwhile may have had savepoints. Before, it was read
     * back as none whenever no savepoint was in progress, so the race was never detected.
     */
    @Test
    void theHighestCommittedIdIsKnownWhenNoSavepointIsInProgress() throws Exception {
        try (Connection writer = PgTestDatabase.open();
                Connection reader = PgTestDatabase.open()) {
            writer.setAutoCommit(false);
            long top = insert(writer, 1);
            long after = committedInsert(2);
            reader.setAutoCommit(false);
            reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            Seen seen = Seen.of(reader);
            assertThat(seen.listed()).contains(top);
            assertThat(seen.savepoints()).isEmpty();
            assertThat(seen.lastCommitted()).isGreaterThanOrEqualTo(after);
            writer.commit();
            assertThat(seen.endedSince(reader)).isEqualTo(top);
            assertThat(seen.ambiguousAfter(top)).isTrue();
            reader.rollback();
        }
    }

    private TableInfo describe() throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            return PostgresCatalog.describe(c, schema, "t", null);
        }
    }

    /** Inserts {@code id} in {@code c}'s transaction; returns the id {@code xmin} holds, 64-bit. */
    private long insert(Connection c, int id) throws Exception {
        try (java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "INSERT INTO "
                                        + table
                                        + " VALUES ("
                                        + id
                                        + ") RETURNING xmin::text::int8")) {
            rs.next();
            return rs.getLong(1); // this database's ids are far below 2^32
        }
    }

    private long committedInsert(int id) throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            return insert(c, id);
        }
    }
}
