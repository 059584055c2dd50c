package io.skippr.sources.postgres;

import java.util.List;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A split of a {@code replication_method: cdc} source: a key range of a table read in the slot's
 * exported snapshot ({@link #snapshot} set), or the one split that streams the slot.
 *
 * @param snapshot the key-range split of the snapshot, with its progress; null for the stream
 * @param snapshotName the exported snapshot its transaction imports; null when none can be (the
 *     enumerator restarted, so the snapshot ended: the split reads the table as it is then)
 * @param consistentPoint the slot's consistent point: the LSN of snapshot rows
 * @param tables for the stream split, the tables it delivers
 * @param resumeLsn for the stream split, the end LSN of the last transaction wholly delivered (the
 *     consistent point before any): it restarts there
 * @param partialCommitLsn the commit LSN of a transaction delivered in part, 0 for none
 * @param partialCount how many changes of it were delivered
 * @param committedLsn the slot position the destination holds, confirmed when the stream starts
 * @param upTo for a bounded run, the server's WAL position at its start: the stream ends there; -1
 *     for a continuous run
 */
public record CdcSplit(
        String splitId,
        PostgresSplit snapshot,
        String snapshotName,
        long consistentPoint,
        List<TableInfo> tables,
        long resumeLsn,
        long partialCommitLsn,
        long partialCount,
        long committedLsn,
        long upTo)
        implements SourceSplit {

    public CdcSplit {
        tables = List.copyOf(tables);
    }

    static final String STREAM_ID = "cdc-stream";

    static CdcSplit snapshot(PostgresSplit split, String snapshotName, long consistentPoint) {
        return new CdcSplit(
                split.splitId(), split, snapshotName, consistentPoint, List.of(), 0, 0, 0, 0, -1);
    }

    static CdcSplit stream(List<TableInfo> tables, long resumeLsn, long committedLsn, long upTo) {
        return new CdcSplit(STREAM_ID, null, null, 0, tables, resumeLsn, 0, 0, committedLsn, upTo);
    }

    boolean isSnapshot() {
        return snapshot != null;
    }

    CdcSplit withSnapshot(PostgresSplit progress) {
        return new CdcSplit(
                splitId, progress, snapshotName, consistentPoint, tables, 0, 0, 0, 0, -1);
    }

    CdcSplit withStream(long resume, long partialCommit, long partial) {
        return new CdcSplit(
                splitId, null, null, 0, tables, resume, partialCommit, partial, committedLsn, upTo);
    }

    @Override
    public String toString() {
        return isSnapshot()
                ? "CdcSplit[snapshot " + snapshot + " at " + CdcRows.lsn(consistentPoint, 0) + "]"
                : "CdcSplit[stream from "
                        + CdcRows.lsn(resumeLsn, 0)
                        + (partialCount > 0 ? " after " + partialCount + " changes" : "")
                        + "]";
    }
}
