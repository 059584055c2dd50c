package io.skippr.sources.postgres.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.sources.postgres.PgTestDatabase;
import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link SlotHealth} read off the test PostgreSQL while a slot is idle, then while it is read. */
class SlotHealthITCase {
    private final PostgresConnectionConfig config = PgTestDatabase.connection();
    private String schema;

    @BeforeEach
    void createSchema() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_slot_health_");
        PgTestDatabase.exec("CREATE TABLE \"" + schema + "\".\"t\" (id int PRIMARY KEY, s text)");
    }

    @AfterEach
    void dropAll() throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            if (SlotHealth.read(c, schema).isPresent()) {
                try (Connection replication = ReplicationConnections.open(config);
                        Statement s = replication.createStatement()) {
                    s.execute("DROP_REPLICATION_SLOT " + Slots.quoteName(schema) + " WAIT");
                }
            }
            Slots.dropPublication(c, schema);
        }
        PgTestDatabase.dropSchema(schema);
    }

    @Test
    void anIdleSlotKeepsTheWalWrittenSinceAndSaysNobodyReadsIt() throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            assertThat(SlotHealth.read(c, schema)).isEmpty();
            Slots.ensurePublication(c, schema, List.of(new Slots.TableName(schema, "t")));
            Slots.createSlot(config, schema, Duration.ofSeconds(60)).close();
            // the test server runs with synchronous_commit off: without this, the WAL write
            // position (what pg_current_wal_lsn reports) may not yet include the insert
            PgTestDatabase.execIn(c, "SET synchronous_commit = on");
            long before = written(c);
            PgTestDatabase.execIn(
                    c,
                    "INSERT INTO \""
                            + schema
                            + "\".\"t\" SELECT i, repeat('x', 100) FROM generate_series(1, 20000) i");
            long wal = written(c) - before;

            SlotHealth idle = SlotHealth.read(c, schema).orElseThrow();
            assertThat(idle.active()).isFalse();
            assertThat(idle.walStatus()).isEqualTo("reserved");
            // everything written since the slot's start is kept and unconfirmed
            assertThat(idle.retainedBytes()).isGreaterThanOrEqualTo(wal).isGreaterThan(2_000_000);
            assertThat(idle.lagBytes()).isGreaterThanOrEqualTo(wal);
            assertThat(idle.warnings(1024 * 1024))
                    .hasSize(2)
                    .last()
                    .isEqualTo(
                            "replication slot "
                                    + schema
                                    + " is not being read: WAL grows on the server until the"
                                    + " pipeline runs again or the slot is dropped");

            try (ChangeStream stream =
                    ChangeStream.open(config, schema, schema, 0, Duration.ofMillis(100))) {
                Optional<SlotHealth> read = SlotHealth.read(c, schema);
                assertThat(read).get().extracting(SlotHealth::active).isEqualTo(true);
                assertThat(read.get().warnings(Long.MAX_VALUE)).isEmpty();
            }
        }
    }

    private static long written(Connection c) throws Exception {
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
