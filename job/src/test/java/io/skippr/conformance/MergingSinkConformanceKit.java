package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The contract of data sinks that merge on a key (the SQL sinks), on top of every sink's: what the
 * default write mode gives a keyed table. Append-only destinations are held to the default mode
 * appending, in {@link
 * SinkConformanceKit#aOnceRunAfterContinuousCommitsIsRefusedRatherThanLoadingThemTwice}.
 */
public abstract class MergingSinkConformanceKit extends SinkConformanceKit {
    /**
     * Passes when, without a write_mode, a --once run after continuous commits of a keyed table is
     * taken (the continuous rows read again merge, they are not added twice) and the destination
     * holds each source row once.
     */
    @Test
    void aOnceRunAfterContinuousCommitsOfAKeyedTableMergesThemInTheDefaultMode() throws Exception {
        KitPipeline.Run run = orders().mode(null);
        source.orders("orders", 1, 301);
        pipeline.once(run);
        source.orders("orders", 301, 351);
        try (var continuous = pipeline.start(run)) {
            KitPipeline.await(() -> keys("orders") >= 350);
        }
        source.orders("orders", 351, 361);
        var counters = pipeline.once(run);
        assertThat(counters.get("orders").get("written")).isGreaterThanOrEqualTo(60L);
        assertHolds("orders", 1, 361);
    }
}
