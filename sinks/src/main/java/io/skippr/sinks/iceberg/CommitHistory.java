package io.skippr.sinks.iceberg;

import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * What Skippr records in the summary of each snapshot it commits, and reads back from a table's
 * history: which pipeline, sink, run and checkpoint committed it (the commit id), how many rows,
 * and in a bounded run the stream's highest cursor value among them (where the next run starts).
 * Only the current snapshot's ancestors count: a commit is in the table if and only if its snapshot
 * is.
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
        long last = 0;
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
     * The position the latest bounded run of this pipeline and sink that recorded one committed to
     * the table, or null.
     */
    public Position position(Table table) {
        for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
            Map<String, String> summary = summary(snapshot);
            if (ours(summary)
                    && "true".equals(summary.get(BOUNDED))
                    && summary.get(POSITION) != null) {
                return new Position(
                        summary.get(STREAM), summary.get(POSITION), summary.get(POSITION_TYPE));
            }
        }
        return null;
    }

    /**
     * Rows continuous runs of this pipeline and sink committed to the table after the snapshot
     * {@link #position} reads (all of theirs when there is none).
     */
    public long rowsAfterPosition(Table table) {
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
