package io.skippr.sinks.iceberg;

import io.skippr.core.record.CommittedPosition;
import io.skippr.core.record.ReadPositions;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * What Skippr records in the summary of each snapshot it commits, and reads back from a table's
 * history: which pipeline, sink, run and checkpoint committed it (the commit id), how many rows,
 * and in a bounded run the stream's highest cursor value among them (where the next run starts).
 * Only the current snapshot's ancestors count: a commit is in the table if and only if its snapshot
 * is. The run, the positions (per stream) and the rows continuous runs committed since the last
 * positions are also kept in the table's properties, set in the same metadata commit, where
 * snapshot expiry and compaction cannot drop them.
 */
public final class CommitHistory {
    public static final String PIPELINE = "skippr.pipeline";
    public static final String SINK = "skippr.sink";
    public static final String RUN = "skippr.run";
    public static final String CHECKPOINT = "skippr.checkpoint";
    public static final String COMMIT_ID = "skippr.commit-id";
    public static final String STREAM = "skippr.stream";
    public static final String ROWS = "skippr.rows";
    public static final String BOUNDED = "skippr.bounded";
    public static final String POSITION = "skippr.position";
    public static final String POSITION_TYPE = "skippr.position-type";
    public static final String COMPACTION = "skippr.compaction";
    private static final String BOUNDED_DEADLETTER_RUN = "bounded-deadletter-run";

    private final IcebergSinkSettings settings;

    public CommitHistory(IcebergSinkSettings settings) {
        this.settings = settings;
    }

    /**
     * The id of a commit: pipeline, sink and run, and in a continuous run the checkpoint; the same
     * when Flink replays the commit after a restart.
     */
    public String commitId(long run, long checkpoint) {
        String id = settings.pipeline() + "/" + settings.sink() + "/run-" + run;
        return settings.bounded() ? id : id + "/checkpoint-" + checkpoint;
    }

    /** Whether a snapshot in the table's current history carries {@code commitId}. */
    public boolean contains(Table table, String commitId) {
        for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
            if (commitId.equals(summary(snapshot).get(COMMIT_ID))) {
                return true;
            }
        }
        return false;
    }

    /** The highest run of this pipeline and sink the table's history records, or 0. */
    public long lastRun(Table table) {
        long last = Long.parseLong(table.properties().getOrDefault(key("last-run"), "0"));
        for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
            Map<String, String> summary = summary(snapshot);
            if (ours(summary) && summary.containsKey(RUN)) {
                last = Math.max(last, Long.parseLong(summary.get(RUN)));
            }
        }
        return last;
    }

    /** A stream's committed cursor value and its type kind. */
    public record Position(String stream, String value, String type) {}

    /**
     * Per stream, where the next run starts: the position the latest bounded run of this pipeline
     * and sink that recorded one committed to the table, joined by the read positions of the
     * continuous commits after it; from the table's properties, else (a table committed to before
     * they held positions) from its snapshots.
     */
    public Map<String, Position> positions(Table table) {
        Map<String, Position> positions = new java.util.TreeMap<>();
        String prefix = key("position.");
        table.properties()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith(prefix)) {
                                String stream = k.substring(prefix.length());
                                String[] typed = v.split(":", 2);
                                positions.put(stream, new Position(stream, typed[1], typed[0]));
                            }
                        });
        if (positions.isEmpty()) {
            for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
                Map<String, String> summary = summary(snapshot);
                if (ours(summary)
                        && "true".equals(summary.get(BOUNDED))
                        && summary.get(POSITION) != null) {
                    Position p =
                            new Position(
                                    summary.get(STREAM),
                                    summary.get(POSITION),
                                    summary.get(POSITION_TYPE));
                    positions.put(p.stream(), p);
                    break;
                }
            }
        }
        return positions;
    }

    /**
     * Records a commit in the table's properties, in the commit's own transaction: the run, and for
     * a bounded run the positions it committed per stream (and no rows after them). A continuous
     * commit's read positions join those kept by union, compacted by the source ({@link
     * ReadPositions#compact}) so the properties stay small; its rows of a stream without one count
     * as rows after the positions. A deadletter sink's bounded commit records its data run ({@link
     * #boundedDeadletterRun}), a continuous one clears it.
     *
     * @param rows per stream, the rows the commit adds
     */
    void record(
            org.apache.iceberg.UpdateProperties properties,
            Table table,
            long run,
            Map<String, Long> rows,
            Map<String, CommittedPosition> positions) {
        properties.set(key("last-run"), String.valueOf(Math.max(run, lastRun(table))));
        if (settings.deadletterRun() > 0 && settings.bounded()) {
            properties.set(key(BOUNDED_DEADLETTER_RUN), String.valueOf(settings.deadletterRun()));
        } else if (settings.deadletterRun() > 0) {
            properties.remove(key(BOUNDED_DEADLETTER_RUN));
        }
        if (settings.bounded()) {
            if (!positions.isEmpty()) {
                positions.forEach(
                        (stream, p) ->
                                properties.set(
                                        key("position." + stream), p.type() + ":" + p.value()));
                properties.set(key("rows-after-position"), "0");
            }
        } else {
            long uncovered = 0;
            for (Map.Entry<String, Long> e : rows.entrySet()) {
                CommittedPosition read = positions.get(e.getKey());
                if (read == null || !CommittedPosition.READ.equals(read.type())) {
                    uncovered += e.getValue();
                    continue;
                }
                String key = key("position." + e.getKey());
                String kept = table.properties().get(key);
                String prefix = CommittedPosition.READ + ":";
                if (kept == null) {
                    properties.set(key, prefix + ReadPositions.compact(read.value()));
                } else if (kept.startsWith(prefix)
                        && ReadPositions.isEntries(kept.substring(prefix.length()))) {
                    String both =
                            ReadPositions.union(kept.substring(prefix.length()), read.value());
                    properties.set(key, prefix + ReadPositions.compact(both));
                } // else an earlier version's cursor value, which stays
            }
            properties.set(
                    key("rows-after-position"),
                    String.valueOf(rowsAfterPosition(table) + uncovered));
        }
        properties.commit();
    }

    /**
     * The data run whose deadletters the last commit of this deadletter sink took, if that commit
     * was a bounded run's (0 otherwise, and after {@link #clearBoundedDeadletterRun}): when the
     * data sink has not committed that data run since, its rows are a failed attempt's.
     */
    public long boundedDeadletterRun(Table table) {
        return Long.parseLong(table.properties().getOrDefault(key(BOUNDED_DEADLETTER_RUN), "0"));
    }

    /** Forgets {@link #boundedDeadletterRun}, once its rows are removed. */
    void clearBoundedDeadletterRun(org.apache.iceberg.UpdateProperties properties) {
        properties.remove(key(BOUNDED_DEADLETTER_RUN)).commit();
    }

    /** A property of this pipeline and sink: {@code skippr.<pipeline>/<sink>.<name>}. */
    private String key(String name) {
        return "skippr." + settings.pipeline() + "/" + settings.sink() + "." + name;
    }

    /**
     * Rows continuous runs of this pipeline and sink committed to the table after the snapshot
     * {@link #position} reads (all of theirs when there is none).
     */
    public long rowsAfterPosition(Table table) {
        String kept = table.properties().get(key("rows-after-position"));
        if (kept != null) {
            return Long.parseLong(kept);
        }
        long rows = 0;
        for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
            Map<String, String> summary = summary(snapshot);
            if (!ours(summary)) {
                continue;
            }
            if ("true".equals(summary.get(BOUNDED)) && summary.get(POSITION) != null) {
                return rows;
            }
            if ("false".equals(summary.get(BOUNDED)) && summary.get(ROWS) != null) {
                rows += Long.parseLong(summary.get(ROWS));
            }
        }
        return rows;
    }

    private boolean ours(Map<String, String> summary) {
        return settings.pipeline().equals(summary.get(PIPELINE))
                && settings.sink().equals(summary.get(SINK));
    }

    private static Map<String, String> summary(Snapshot snapshot) {
        Map<String, String> summary = snapshot.summary();
        return summary == null ? Map.of() : summary;
    }
}
