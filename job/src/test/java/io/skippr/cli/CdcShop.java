package io.skippr.cli;

import io.skippr.job.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.postgresql.PGConnection;
import org.postgresql.replication.PGReplicationStream;

/**
 * Pipeline {@code shop} of the CLI's change-data-capture tests: table {@code items} of {@code pg}'s
 * schema, streamed in merge mode from a slot and publication of its own into schema {@link
 * #sinkSchema} of the same server. Closing it drops the slot, the publication and that schema.
 */
final class CdcShop implements AutoCloseable {
    final String sinkSchema;
    final String slot;
    private final TestPostgres pg;

    /** Writes {@code dir/skippr.yml}. */
    CdcShop(Path dir, TestPostgres pg) throws IOException {
        this.pg = pg;
        sinkSchema = pg.schema + "_out";
        slot = "skippr_cli_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  shop:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.out\n    write_mode: merge\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("items", null)
                        + "      replication_method: cdc\n      slot_name: "
                        + slot
                        + "\n      publication: "
                        + slot
                        + "\ndata_sinks:\n  out:\n"
                        + TestPostgres.sinkYaml(sinkSchema));
    }

    /** How many slots named {@link #slot} the server has: 0 or 1. */
    List<String> slots() throws SQLException {
        return pg.one("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
    }

    /** The slot's confirmed_flush_lsn and restart_lsn. */
    List<String> slotPositions() throws SQLException {
        return pg.one(
                "SELECT confirmed_flush_lsn::text, restart_lsn::text FROM pg_replication_slots"
                        + " WHERE slot_name = '"
                        + slot
                        + "'");
    }

    /**
     * A replication stream reading the slot, as a running sync does (the slot is active while it is
     * open); it is never read, so it confirms nothing.
     */
    SlotReader readSlot() throws SQLException {
        Connection replication = TestPostgres.replicationConnection();
        try {
            PGReplicationStream stream =
                    replication
                            .unwrap(PGConnection.class)
                            .getReplicationAPI()
                            .replicationStream()
                            .logical()
                            .withSlotName(slot)
                            .withSlotOption("proto_version", "1")
                            .withSlotOption("publication_names", slot)
                            .start();
            return new SlotReader(replication, stream);
        } catch (SQLException | RuntimeException e) {
            replication.close();
            throw e;
        }
    }

    /** An open replication stream of the slot and its connection. */
    record SlotReader(Connection connection, PGReplicationStream stream) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            try {
                stream.close();
            } finally {
                connection.close();
            }
        }
    }

    @Override
    public void close() throws Exception {
        // the run's walsender may outlive its process for a moment: WAIT until it lets go
        try (Connection c = pg.connect();
                Statement st = c.createStatement()) {
            if (!slots().equals(List.of("0"))) {
                try (Connection r = TestPostgres.replicationConnection();
                        Statement rs = r.createStatement()) {
                    rs.execute("DROP_REPLICATION_SLOT \"" + slot + "\" WAIT");
                }
            }
            st.execute("DROP PUBLICATION IF EXISTS \"" + slot + "\"");
            st.execute("DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE");
        }
    }
}
