package io.skippr.sources.postgres;

import io.skippr.config.ConfigError;
import io.skippr.config.ConfigException;
import io.skippr.core.spi.SourceContext;
import io.skippr.core.spi.SourceServerState;
import io.skippr.sources.postgres.cdc.SlotAdvance;
import io.skippr.sources.postgres.cdc.SlotIdle;
import io.skippr.sources.postgres.cdc.Slots;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replication slot and publication a {@code replication_method: cdc} source keeps on its server
 * for a pipeline: warned of when nobody has read the slot for long ({@code
 * slot_inactive_warning_minutes}), dropped by {@code skipprd reset} unless a run reads it.
 */
final class CdcServerState implements SourceServerState {
    private static final Logger LOG = LoggerFactory.getLogger(CdcServerState.class);

    static final String INACTIVE_MINUTES = "slot_inactive_warning_minutes";
    static final long DEFAULT_INACTIVE_MINUTES = 60;

    /** PostgreSQL's SQLSTATE for an object in use: a slot a walsender holds. */
    private static final String OBJECT_IN_USE = "55006";

    /** How long a release waits for the run's walsender to let go of the slot. */
    private static final Duration RELEASE_WAIT = Duration.ofSeconds(10);

    private final String pipeline;
    private final PostgresSourceConfig config;
    private final PostgresConnectionConfig connection;
    private final CdcSettings cdc;
    private final long inactiveMinutes;

    private CdcServerState(String pipeline, PostgresSourceConfig config, long inactiveMinutes) {
        this.pipeline = pipeline;
        this.config = config;
        this.connection = config.connection();
        this.cdc = config.cdc();
        this.inactiveMinutes = inactiveMinutes;
    }

    /** The state of {@code context}'s source, or empty unless its replication method is cdc. */
    static Optional<SourceServerState> of(SourceContext context) {
        PostgresSourceConfig config = PostgresSourceConfig.from(context);
        if (!config.isCdc()) {
            return Optional.empty();
        }
        long minutes =
                context.settings().integer(INACTIVE_MINUTES).orElse(DEFAULT_INACTIVE_MINUTES);
        if (minutes < 1) {
            throw new ConfigException(
                    new ConfigError(
                            "skippr.yml",
                            0,
                            0,
                            "data_sources." + context.entry() + ".Postgres." + INACTIVE_MINUTES,
                            INACTIVE_MINUTES
                                    + " is "
                                    + minutes
                                    + ": give the minutes a slot may go unread before Skippr"
                                    + " warns, 1 or more"));
        }
        return Optional.of(new CdcServerState(context.pipeline(), config, minutes));
    }

    @Override
    public String describe() {
        return "replication slot "
                + cdc.slot()
                + " and publication "
                + cdc.publication()
                + " on "
                + connection.describe();
    }

    @Override
    public List<String> warnings() throws IOException {
        try (Connection c = connection.connect()) {
            return SlotIdle.read(c, cdc.slot())
                    .map(idle -> idle.warnings(pipeline, inactiveMinutes, cdc.walWarningBytes()))
                    .orElse(List.of());
        } catch (SQLException e) {
            throw readFailure(e);
        }
    }

    private IOException readFailure(SQLException e) {
        return new IOException("Could not read " + slotOn() + ": " + e.getMessage(), e);
    }

    @Override
    public void checkUnused() throws IOException {
        try (Connection c = connection.connect()) {
            Optional<SlotIdle> slot = SlotIdle.read(c, cdc.slot());
            if (slot.isPresent() && slot.get().active()) {
                throw inUse(slot.get().activePid());
            }
        } catch (SQLException e) {
            throw readFailure(e);
        }
    }

    /** Moves the slot to the LSN the destination committed for every table of the pipeline. */
    @Override
    public void release() throws IOException {
        if (cdc.committed() == null) {
            return;
        }
        try (Connection c = connection.connect()) {
            List<TableInfo> tables = PostgresTables.discover(c, config);
            long lsn = CdcPositions.committed(cdc.committed().get(), tables, cdc.slot());
            if (lsn <= 0) {
                return;
            }
            Optional<SlotAdvance.Moved> moved = SlotAdvance.to(c, cdc.slot(), lsn, RELEASE_WAIT);
            if (moved.isEmpty()) {
                LOG.info("Did not move {}: it is missing or being read", slotOn());
                return;
            }
            LOG.info("Moved {} {}", slotOn(), moved.get().describe());
        } catch (SQLException e) {
            throw new IOException("Could not move " + slotOn() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<String> drop() throws IOException {
        List<String> dropped = new ArrayList<>();
        try (Connection c = connection.connect()) {
            Optional<SlotIdle> slot = SlotIdle.read(c, cdc.slot());
            if (slot.isPresent()) {
                if (slot.get().active()) {
                    throw inUse(slot.get().activePid());
                }
                try {
                    if (Slots.dropSlot(c, cdc.slot())) {
                        dropped.add("replication slot " + cdc.slot());
                    }
                } catch (SQLException e) {
                    if (OBJECT_IN_USE.equals(e.getSQLState())) { // a run started since the read
                        throw inUse(0);
                    }
                    throw e;
                }
            }
            if (Slots.publishedTables(c, cdc.publication()) != null) {
                Slots.dropPublication(c, cdc.publication());
                dropped.add("publication " + cdc.publication());
            }
        } catch (SQLException e) {
            throw new IOException(
                    "Could not drop "
                            + describe()
                            + ": "
                            + e.getMessage()
                            + (dropped.isEmpty()
                                    ? ""
                                    : " (dropped: " + String.join(", ", dropped) + ")"),
                    e);
        }
        return dropped;
    }

    /** {@code replication slot s on PostgreSQL at host:port, ...}. */
    private String slotOn() {
        return "replication slot " + cdc.slot() + " on " + connection.describe();
    }

    private IllegalStateException inUse(int pid) {
        return new IllegalStateException(
                slotOn()
                        + " is being read"
                        + (pid > 0 ? " (walsender pid " + pid + ")" : "")
                        + ": a run of pipeline "
                        + pipeline
                        + " is going on. Stop it first (Ctrl-C in its 'skipprd sync', or"
                        + " 'skipprd savepoint --pipeline "
                        + pipeline
                        + " --stop'), then run 'skipprd reset --pipeline "
                        + pipeline
                        + "' again");
    }
}
