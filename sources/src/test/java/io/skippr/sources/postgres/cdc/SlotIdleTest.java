package io.skippr.sources.postgres.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a slot nobody reads is warned of, and the warning's words, with and without PG17's age. */
class SlotIdleTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void aSlotReadNowIsNeverWarnedOf() {
        assertThat(new SlotIdle("s", 4711, 5000 * MIB, -1).warnings("p", 60, MIB)).isEmpty();
    }

    @Test
    void withItsAgeKnownTheAgeDecidesNotTheWal() {
        assertThat(new SlotIdle("s", 0, 5000 * MIB, 3600).warnings("p", 60, MIB)).isEmpty();
        assertThat(
                        new SlotIdle("s_orders", 0, 3 * MIB / 2, 3661)
                                .warnings("orders", 60, 1024 * MIB))
                .containsExactly(
                        "replication slot s_orders has not been read for 61 minutes (warning above"
                                + " 60, slot_inactive_warning_minutes) and keeps 1.5 MiB of WAL on"
                                + " the server: keep pipeline orders running ('skipprd sync"
                                + " --pipeline orders'), or, if it is retired, drop the slot with"
                                + " 'skipprd reset --pipeline orders'");
    }

    @Test
    void withoutItsAgeAnInactiveSlotIsWarnedOfPastTheWalBound() {
        assertThat(new SlotIdle("s", 0, 1024 * MIB, -1).warnings("p", 60, 1024 * MIB)).isEmpty();
        assertThat(new SlotIdle("s", 0, 1025 * MIB, -1).warnings("p", 60, 1024 * MIB))
                .containsExactly(
                        "replication slot s is not being read and keeps 1025.0 MiB of WAL on the"
                                + " server (warning above 1024.0 MiB, slot_wal_warning_mb;"
                                + " PostgreSQL before 17 does not record how long a slot has been"
                                + " inactive): keep pipeline p running ('skipprd sync --pipeline"
                                + " p'), or, if it is retired, drop the slot with 'skipprd reset"
                                + " --pipeline p'");
    }
}
