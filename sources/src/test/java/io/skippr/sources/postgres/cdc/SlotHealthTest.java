package io.skippr.sources.postgres.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SlotHealthTest {
    private static final long MIB = 1024 * 1024;

    @Test
    void aReadSlotWithinItsBoundHasNothingToSay() {
        assertThat(new SlotHealth("s", true, 10 * MIB, 2 * MIB, "reserved").warnings(64 * MIB))
                .isEmpty();
    }

    @Test
    void wasteAboveTheBoundAndNoReaderAreEachNamed() {
        assertThat(
                        new SlotHealth("orders_cdc", false, 96 * MIB + MIB / 2, 0, "extended")
                                .warnings(64 * MIB))
                .containsExactly(
                        "replication slot orders_cdc keeps 96.5 MiB of WAL on the server (warning"
                                + " above 64.0 MiB); PostgreSQL cannot recycle it until the"
                                + " pipeline confirms the changes",
                        "replication slot orders_cdc is not being read: WAL grows on the server"
                                + " until the pipeline runs again or the slot is dropped");
    }

    @Test
    void aLostSlotSaysOnlyThat() {
        assertThat(new SlotHealth("orders_cdc", false, 0, 0, "lost").warnings(MIB))
                .containsExactly(
                        "replication slot orders_cdc is invalidated: PostgreSQL removed WAL it"
                                + " still needed (max_slot_wal_keep_size); its changes cannot be"
                                + " read any more");
    }
}
