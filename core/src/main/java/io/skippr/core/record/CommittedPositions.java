package io.skippr.core.record;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the next run starts, folded from a sink's commits in run order: a bounded run's positions
 * (the union over its subtasks) replace those of the streams it has; a continuous commit's read
 * positions are added to them by union (the source reads what none covers). Rows a continuous
 * commit made without a read position (a source without positions, an earlier version) would be
 * loaded again by a run starting there: they are counted as {@link #uncovered}.
 */
public final class CommittedPositions {
    private final Map<String, String> positions = new LinkedHashMap<>();
    private final Map<String, CommittedPosition> bounded = new LinkedHashMap<>();
    private long boundedRun = -1;
    private long uncovered;

    /** A bounded run's commit (one subtask's): {@code run}'s positions, per stream. */
    public void bounded(long run, Map<String, CommittedPosition> committed) {
        if (run != boundedRun) { // a later bounded run: its positions replace
            flush();
            boundedRun = run;
            uncovered = 0;
        }
        committed.forEach((s, p) -> bounded.merge(s, p, CommittedPosition::combine));
    }

    /** A continuous commit of {@code rows} rows with {@code committed} positions, per stream. */
    public void continuous(Map<String, CommittedPosition> committed, long rows) {
        flush();
        boolean read = false;
        for (Map.Entry<String, CommittedPosition> e : committed.entrySet()) {
            if (CommittedPosition.READ.equals(e.getValue().type())) {
                read = true;
                positions.merge(e.getKey(), e.getValue().value(), CommittedPositions::add);
            }
        }
        if (!read) {
            uncovered += rows;
        }
    }

    /** Per stream, where the next run starts. */
    public Map<String, String> positions() {
        flush();
        return positions;
    }

    /** Rows continuous runs committed after the last bounded run without a read position. */
    public long uncovered() {
        return uncovered;
    }

    private void flush() {
        bounded.forEach((s, p) -> positions.put(s, p.value()));
        bounded.clear();
    }

    /** A read position added by union; a cursor value of an earlier version stays. */
    private static String add(String committed, String read) {
        return ReadPositions.isEntries(committed)
                ? ReadPositions.union(committed, read)
                : committed;
    }
}
