package io.skippr.sources.postgres;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A split of a {@code replication_method: cdc} source: a key range of a table read in the slot's
 * exported snapshot ({@link #snapshot} set), or the one split that streams the slot.
 *
 * @param snapshot the key-range split of the snapshot, with its progress; null for the stream
 * @param snapshotName the exported snapshot its transaction imports; null when none can be (an
 *     enumerator state of version 1 restored: the split reads the table as it is then). After any
 *     later restore the enumerator gives it a new one ({@link CdcRereads})
 * @param consistentPoint the slot's consistent point: the LSN of snapshot rows
 * @param tables for the stream split, the tables it delivers
 * @param resumeLsn for the stream split, the end LSN of the last transaction wholly delivered (the
 *     consistent point before any): it restarts there
 * @param partialCommitLsn the commit LSN of a transaction delivered in part, 0 for none
 * @param partialCount how many changes of it were delivered
 * @param committedLsn the slot position the destination holds, confirmed when the stream starts
 * @param upTo for a bounded run, the server's WAL position at its start: the stream ends there; -1
 *     for a continuous run
 * @param added for the stream split, the tables of {@code tables} added after the slot was made
 *     (see {@link CdcAddedTables})
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
        long upTo,
        CdcAddedTables added)
        implements SourceSplit {

    public CdcSplit {
        tables = List.copyOf(tables);
    }

    static final String STREAM_ID = "cdc-stream";

    static CdcSplit snapshot(PostgresSplit split, String snapshotName, long consistentPoint) {
        return new CdcSplit(
                split.splitId(),
                split,
                snapshotName,
                consistentPoint,
                List.of(),
                0,
                0,
                0,
                0,
                -1,
                CdcAddedTables.NONE);
    }

    static CdcSplit stream(List<TableInfo> tables, long resumeLsn, long committedLsn, long upTo) {
        return new CdcSplit(
                STREAM_ID,
                null,
                null,
                0,
                tables,
                resumeLsn,
                0,
                0,
                committedLsn,
                upTo,
                CdcAddedTables.NONE);
    }

    boolean isSnapshot() {
        return snapshot != null;
    }

    CdcSplit withSnapshot(PostgresSplit progress) {
        return new CdcSplit(
                splitId,
                progress,
                snapshotName,
                consistentPoint,
                tables,
                0,
                0,
                0,
                0,
                -1,
                CdcAddedTables.NONE);
    }

    CdcSplit withStream(long resume, long partialCommit, long partial) {
        return new CdcSplit(
                splitId,
                null,
                null,
                0,
                tables,
                resume,
                partialCommit,
                partial,
                committedLsn,
                upTo,
                added);
    }

    /**
     * The stream split with the enumerator's {@code latest} added tables: those it lacks join
     * {@link #tables}, and which are held is {@code latest}'s.
     */
    CdcSplit withAdded(CdcAddedTables latest) {
        List<TableInfo> all = new ArrayList<>(tables);
        Set<String> streams = new HashSet<>();
        for (TableInfo table : tables) {
            streams.add(table.stream());
        }
        for (TableInfo table : latest.tables()) {
            if (streams.add(table.stream())) {
                all.add(table);
            }
        }
        return new CdcSplit(
                splitId,
                null,
                null,
                0,
                all,
                resumeLsn,
                partialCommitLsn,
                partialCount,
                committedLsn,
                upTo,
                latest);
    }

    /** The tables whose positions the stream commits: all but the held ones. */
    List<TableInfo> positionedTables() {
        return tables.stream().filter(t -> !added.held().contains(t.stream())).toList();
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
