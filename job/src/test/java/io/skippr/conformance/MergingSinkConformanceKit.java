package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of data sinks that merge on a key (the SQL sinks), on top of every sink's: what the
 * default write mode gives a keyed table. Append-only destinations are held to the default mode
 * appending, in {@link SinkConformanceKit#aOnceRunAfterAContinuousRunLoadsWhatItDidNotCommitOnce}.
 */
public abstract class MergingSinkConformanceKit extends SinkConformanceKit {
    /**
     * Passes when, without a write_mode, a --once run after continuous commits of a keyed table is
     * taken and the destination holds each source row once; it reads only the rows the continuous
     * run did not commit (on main it read the continuous run's 50 rows again, and merged them).
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
        assertThat(counters.get("orders").get("written")).isEqualTo(10L);
        assertHolds("orders", 1, 361);
    }

    /**
     * Passes when a continuous run sends the rows a rule of the user's refuses to the deadletter
     * sink with the destination's words, checkpoint after checkpoint, and loads the others once.
     */
    @Test
    void aContinuousRunDeadlettersTheRowsTheDestinationRefuses() throws Exception {
        source.orders("orders", 1, 11);
        pipeline.once(orders());
        Set<Long> refused = Set.of(20L, 35L);
        String words = fixture.refuse(dir, "orders", refused);
        source.orders("orders", 11, 51);
        try (var run = pipeline.start(orders().withDeadletters())) {
            KitPipeline.await(() -> keys("orders") >= 48 && deadletters().size() >= 2);
        }
        List<Map<String, Object>> rows = fixture.rows(dir, "orders");
        assertThat(rows).hasSize(48);
        assertThat(rows.stream().map(r -> ((Number) r.get("id")).longValue()))
                .doesNotContainAnyElementsOf(refused)
                .doesNotHaveDuplicates();
        assertThat(deadletters())
                .hasSize(2)
                .allSatisfy(
                        letter ->
                                assertThat(letter.path("error_message").asText()).contains(words));
    }
}
