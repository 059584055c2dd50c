package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.catalog.Guarantee;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the fixtures pin instead of asking the product: a guarantee that the catalog no longer
 * states turns the kit's check red (the mutant: a fixture pinned to exactly-once for a kind the
 * catalog calls at-least-once, as a loosened catalog would), and table names are written out, never
 * computed: a stream name the fixture has not written down is refused.
 */
class SinkFixturePinsTest {
    /** A fixture of {@code kind} that pins {@code guarantee}; it reads nothing. */
    private static SinkFixture pinned(String kind, Guarantee guarantee) {
        return new SinkFixture() {
            @Override
            public String kind() {
                return kind;
            }

            @Override
            public Guarantee guarantee() {
                return guarantee;
            }

            @Override
            public String sinkYaml(Path dir) {
                return "";
            }

            @Override
            public List<Map<String, Object>> rows(Path dir, String stream) {
                return List.of();
            }
        };
    }

    @Test
    void aCatalogGuaranteeOtherThanThePinnedOneTurnsTheKitRed() {
        SinkConformanceKit.assertCatalogStates(pinned("Postgres", Guarantee.EXACTLY_ONCE));
        assertThatThrownBy(
                        () ->
                                SinkConformanceKit.assertCatalogStates(
                                        pinned("Stdout", Guarantee.EXACTLY_ONCE)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the catalog's guarantee for Stdout")
                .hasMessageContaining("AT_LEAST_ONCE");
    }

    @Test
    void tableNamesAreWrittenOutNotComputed() {
        SinkFixture files = pinned("LocalFile", Guarantee.EXACTLY_ONCE);
        assertThat(files.table(SinkFixture.HOSTILE_STREAM)).isEqualTo("order_items_uni");
        assertThat(files.table(SinkFixture.LONG_STREAM))
                .hasSize(100)
                .isEqualTo(
                        "ssssssssssssssssssssssssssssssssssssssss_stream_"
                                + "tttttttttttttttttttttttttttttttttttttttttttttttttttt");
        assertThat(files.table("orders")).isEqualTo("orders");
        assertThatThrownBy(() -> files.table("Order Lines"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "write down the table that stream 'Order Lines' lands under, as the"
                                + " destination's docs give it");
        PostgresFixture postgres = new PostgresFixture();
        assertThat(postgres.table(SinkFixture.LONG_STREAM))
                .isEqualTo("ssssssssssssssssssssssssssssssssssssssss_stream_tttttt_2292adca");
        assertThat(postgres.column(SinkFixture.LONG_COLUMN))
                .isEqualTo("ccccccccccccccccccccccccccccccccccccccccccccc_column_d_5bb8cb6d");
        assertThat(postgres.column("naïve \"q\"")).isEqualTo("naïve \"q\"");
    }
}
