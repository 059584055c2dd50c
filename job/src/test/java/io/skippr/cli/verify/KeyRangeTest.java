package io.skippr.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The key ranges a verify narrows: adjacent, covering exactly, nearly equal, never overflowing. */
class KeyRangeTest {

    @Test
    void aRangeSplitsIntoAdjacentNearlyEqualParts() {
        assertThat(new KeyRange(1, 10).split(4))
                .containsExactly(
                        new KeyRange(1, 3),
                        new KeyRange(4, 6),
                        new KeyRange(7, 8),
                        new KeyRange(9, 10));
        assertThat(new KeyRange(-8, 7).split(16)).hasSize(16).allMatch(r -> r.low() == r.high());
    }

    @Test
    void aRangeNarrowerThanThePartsSplitsIntoSingleKeys() {
        assertThat(new KeyRange(5, 7).split(16))
                .containsExactly(new KeyRange(5, 5), new KeyRange(6, 6), new KeyRange(7, 7));
        assertThat(new KeyRange(42, 42).split(16)).containsExactly(new KeyRange(42, 42));
    }

    @Test
    void theWholeBigintRangeSplitsWithoutOverflow() {
        List<KeyRange> parts = new KeyRange(Long.MIN_VALUE, Long.MAX_VALUE).split(16);
        assertThat(parts).hasSize(16);
        assertThat(parts.get(0).low()).isEqualTo(Long.MIN_VALUE);
        assertThat(parts.get(15).high()).isEqualTo(Long.MAX_VALUE);
        assertThat(parts.get(0).width()).isEqualTo(BigInteger.ONE.shiftLeft(60));
        assertCovers(new KeyRange(Long.MIN_VALUE, Long.MAX_VALUE), parts);
    }

    @Test
    void splittingAgainAndAgainEndsInSingleKeysCoveringTheRange() {
        Random random = new Random(19);
        for (int i = 0; i < 2_000; i++) {
            long low = random.nextLong() / (1 + random.nextInt(1 << 20));
            long high = low + random.nextInt(5_000);
            KeyRange range = new KeyRange(low, high);
            int parts = 1 + random.nextInt(20);
            List<KeyRange> split = range.split(parts);
            assertThat(split).hasSize((int) Math.min(parts, high - low + 1));
            assertCovers(range, split);
            BigInteger widest =
                    split.stream().map(KeyRange::width).max(BigInteger::compareTo).get();
            BigInteger narrowest =
                    split.stream().map(KeyRange::width).min(BigInteger::compareTo).get();
            assertThat(widest.subtract(narrowest)).isLessThanOrEqualTo(BigInteger.ONE);
        }
    }

    @Test
    void anEmptyRangeOrNoPartsIsRefused() {
        assertThatThrownBy(() -> new KeyRange(2, 1)).hasMessage("empty key range [2, 1]");
        assertThatThrownBy(() -> new KeyRange(1, 2).split(0))
                .hasMessage("parts must be positive: 0");
    }

    @Test
    void theSpanOfTwoSidesCoversBothAndToleratesAnEmptySide() {
        assertThat(StreamCheck.span(new KeyRange(5, 9), new KeyRange(-3, 7)))
                .isEqualTo(new KeyRange(-3, 9));
        assertThat(StreamCheck.span(null, new KeyRange(1, 2))).isEqualTo(new KeyRange(1, 2));
        assertThat(StreamCheck.span(null, null)).isNull();
    }

    private static void assertCovers(KeyRange range, List<KeyRange> parts) {
        assertThat(parts.get(0).low()).isEqualTo(range.low());
        assertThat(parts.get(parts.size() - 1).high()).isEqualTo(range.high());
        BigInteger total = BigInteger.ZERO;
        for (int i = 0; i < parts.size(); i++) {
            total = total.add(parts.get(i).width());
            if (i > 0) {
                assertThat(parts.get(i).low()).isEqualTo(parts.get(i - 1).high() + 1);
            }
        }
        assertThat(total).isEqualTo(range.width());
    }
}
