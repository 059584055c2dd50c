package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The ids of transactions that had none when a read took its snapshot, and their life. */
class XidBandTest {
    private static final long EPOCH = 1L << 32;

    @Test
    void aBandCoversTheIdsFromItsStartAcrossTheWrapOfTheirThirtyTwoBits() {
        XidBand band = new XidBand(EPOCH + 5, List.of());
        assertThat(band.covers(5)).isTrue();
        assertThat(band.covers(1_000_000)).isTrue();
        assertThat(band.covers(4)).isFalse();
        assertThat(band.covers(0xffffffffL)).isFalse();

        XidBand wrapping = new XidBand(EPOCH - 2, List.of());
        assertThat(wrapping.covers(0xfffffffeL)).isTrue();
        assertThat(wrapping.covers(1)).isTrue();
        assertThat(wrapping.covers(0xfffffffdL)).isFalse();
    }

    /**
     * A window's read left transactions 7 (in progress) and the ids from 100 up open while "3/1"
     * and "4/9" ran. A late read whose snapshot saw 7, 104 and 230 in progress, below 240, with
     * only "4/9" still running before it, leaves 7, 104 and the band from 240 of "4/9"; a late read
     * after "4/9" ended leaves only what its snapshot saw in progress of those. Entries of the one
     * read, in any order, are the latest's.
     */
    @Test
    void eachLateReadLeavesWhatItsSnapshotCouldNotSeeUntilTheTransactionsRunningAtTheReadEnd() {
        ReadEntry read =
                ReadEntry.chained(
                        new CursorWindow("10", "20", false),
                        null,
                        null,
                        List.of(7L),
                        new XidBand(100, List.of("3/1", "4/9")));
        ReadEntry first =
                read.keeping(List.of(7L, 104L, 50L), new XidBand(240, List.of("4/9", "5/2")));
        assertThat(first.xids()).containsExactly(7L, 104L);
        assertThat(first.band()).isEqualTo(new XidBand(240, List.of("4/9")));
        assertThat(first.open()).isTrue();

        ReadEntry second = first.keeping(List.of(104L, 250L), new XidBand(300, List.of("5/2")));
        assertThat(second.xids()).containsExactly(104L, 250L);
        assertThat(second.band()).isNull();

        ReadEntry third = second.keeping(List.of(), new XidBand(310, List.of()));
        assertThat(third.open()).isFalse();

        assertThat(ReadEntry.perRead(List.of(second, read, first)))
                .containsExactly(second.withOpen(List.of(104L, 250L), null));
        assertThat(ReadEntry.perRead(List.of(first, read))).containsExactly(first);
        assertThat(ReadEntry.perRead(List.of(third, read, first, second)).get(0).open()).isFalse();
        assertThat(ReadEntry.parse(first.toLine())).isEqualTo(first);
    }

    /**
     * A poll reads a read's late commits only once one of its transactions ended: until then their
     * rows are invisible, and a session that stays in a transaction costs no scan per poll.
     */
    @Test
    void aReadsLateCommitsAreReadOnceOneOfItsTransactionsEnded() {
        ReadEntry read =
                new ReadEntry(
                        "20",
                        null,
                        null,
                        List.of(7L),
                        null,
                        null,
                        new XidBand(100, List.of("3/1")));
        assertThat(read.endedSome(running(List.of(7L), "3/1", "5/5"))).isFalse();
        assertThat(read.endedSome(running(List.of(), "3/1"))).isTrue();
        assertThat(read.endedSome(running(List.of(7L), "5/5"))).isTrue();
        ReadEntry once = read.withOpen(List.of(), new XidBand(100, List.of()));
        assertThat(once.endedSome(running(List.of(), "3/1"))).isTrue();
    }

    private static Snapshot running(List<Long> inProgress, String... vxids) {
        return new Snapshot(inProgress, 500, List.of(vxids), List.of(vxids), false);
    }
}
