package io.skippr.core.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Folding a sink's commits, in run order, into where the next run starts. */
class CommittedPositionsTest {
    private static CommittedPosition read(String... entries) {
        return CommittedPosition.read(ReadPositions.of(List.of(entries)));
    }

    @Test
    void aBoundedRunsPositionsReplaceAndContinuousOnesAddByUnion() {
        CommittedPositions folded = new CommittedPositions();
        folded.bounded(1, Map.of("a", read("a1"), "b", read("b1")));
        folded.continuous(Map.of("a", read("a2")), 10);
        folded.bounded(3, Map.of("a", read("a3"))); // subtask 0 of run 3
        folded.bounded(3, Map.of("a", read("a4"))); // subtask 1 of run 3
        folded.continuous(Map.of("a", read("a5"), "b", read("b5")), 7);

        assertThat(folded.positions())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "a", ReadPositions.of(List.of("a3", "a4", "a5")),
                                "b", ReadPositions.of(List.of("b1", "b5"))));
        assertThat(folded.uncovered()).isZero();
    }

    /** Rows committed without a read position would load again; a later --once run resets it. */
    @Test
    void rowsCommittedWithoutAReadPositionAreUncovered() {
        CommittedPositions folded = new CommittedPositions();
        folded.bounded(1, Map.of("a", read("a1")));
        folded.continuous(Map.of("a", new CommittedPosition("INT64", "42")), 10);
        folded.continuous(Map.of(), 5);
        assertThat(folded.uncovered()).isEqualTo(15);
        folded.bounded(4, Map.of("a", read("a4")));
        assertThat(folded.uncovered()).isZero();
        assertThat(folded.positions()).containsEntry("a", ReadPositions.of(List.of("a4")));
    }

    /** A cursor value of an earlier version cannot take entries: it stays where a run starts. */
    @Test
    void anEarlierVersionsCursorValueStays() {
        CommittedPositions folded = new CommittedPositions();
        folded.bounded(1, Map.of("a", new CommittedPosition("INT64", "42")));
        folded.continuous(Map.of("a", read("a2")), 3);
        assertThat(folded.positions()).containsEntry("a", "42");
    }
}
