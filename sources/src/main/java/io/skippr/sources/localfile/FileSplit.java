package io.skippr.sources.localfile;

import io.skippr.core.record.StreamSchema;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One file to read, and how far it has been read: the split's state in a checkpoint.
 *
 * @param path the file's absolute path; also the split id
 * @param format how to read it
 * @param schema the stream schema to emit rows as (the enumerator's inferred schema, or the later
 *     version the reader evolved to while reading this file)
 * @param recordsRead how many records (CSV records after the header, JSONL lines, Parquet rows)
 *     have been emitted: a restored reader skips them. Blank lines count as records.
 * @param byteOffset for CSV and JSONL, the file offset just after the last record read, where a
 *     restored reader seeks to; -1 if unknown (the reader then skips {@code recordsRead} records).
 *     Unused (0) for Parquet.
 * @param generation which reading of the file this is: 0, or one more per rewrite seen ({@link
 *     FileEntry})
 * @param carried positions of files this run does not read again, which its position must keep
 *     ({@link FileEntry} lines); sent with this split's own
 * @param endOffset for CSV and JSONL, the byte offset reading stops at, just after a line break (a
 *     continuous run reads whole lines only, so a line a writer is still appending is read once it
 *     is complete); -1 to read to the end of the file
 * @param number which split of the enumerator this is, unique in a job (a report names its split by
 *     it, so the enumerator takes a report once); -1 for a split that has none (of an earlier
 *     version, or of a {@code --once} run's tests)
 * @param report for a finished split in its reader's state, the report of it the enumerator has not
 *     acknowledged yet ({@link io.skippr.sources.UnacknowledgedReports}); null for a split to read
 * @param skip records a committed position says were read after a hole in it (a subtask's commit
 *     that never happened): pairs of record counts {@code from, to}, each the records after the
 *     {@code from}-th up to the {@code to}-th, which the reader reads past without emitting them
 *     again; empty for none
 */
public record FileSplit(
        String path,
        FileFormat format,
        StreamSchema schema,
        long recordsRead,
        long byteOffset,
        int generation,
        List<String> carried,
        long endOffset,
        long number,
        FileRead report,
        List<Long> skip)
        implements SourceSplit {

    public FileSplit {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(schema, "schema");
        carried = List.copyOf(carried);
        skip = skip == null ? List.of() : List.copyOf(skip);
    }

    public FileSplit(
            String path,
            FileFormat format,
            StreamSchema schema,
            long recordsRead,
            long byteOffset) {
        this(path, format, schema, recordsRead, byteOffset, 0, List.of(), -1);
    }

    public FileSplit(
            String path,
            FileFormat format,
            StreamSchema schema,
            long recordsRead,
            long byteOffset,
            int generation,
            List<String> carried) {
        this(path, format, schema, recordsRead, byteOffset, generation, carried, -1);
    }

    public FileSplit(
            String path,
            FileFormat format,
            StreamSchema schema,
            long recordsRead,
            long byteOffset,
            int generation,
            List<String> carried,
            long endOffset) {
        this(
                path,
                format,
                schema,
                recordsRead,
                byteOffset,
                generation,
                carried,
                endOffset,
                -1,
                null,
                List.of());
    }

    /** A split of a file not read yet. */
    static FileSplit unread(String path, FileFormat format, StreamSchema schema) {
        return new FileSplit(path, format, schema, 0, 0);
    }

    /** This split with the positions of {@code files} to send with its own. */
    FileSplit carrying(List<String> files) {
        return with(recordsRead, byteOffset, generation, files, endOffset, number, report, skip);
    }

    /** This split reading up to byte {@code end} only (-1: to the end of the file). */
    FileSplit endingAt(long end) {
        return with(recordsRead, byteOffset, generation, carried, end, number, report, skip);
    }

    /** This split at another reading position. */
    FileSplit at(long records, long offset, int newGeneration) {
        return with(records, offset, newGeneration, carried, endOffset, number, report, skip);
    }

    /** This split as the enumerator's split {@code n}. */
    FileSplit numbered(long n) {
        return with(recordsRead, byteOffset, generation, carried, endOffset, n, report, skip);
    }

    /** This split finished, read up to {@code entry} (a {@link FileEntry} line): its report. */
    FileSplit finished(String entry) {
        FileRead read = new FileRead(path, number, entry);
        return with(recordsRead, byteOffset, generation, carried, endOffset, number, read, skip);
    }

    /** This split reading past the records of {@code ranges} ({@link #skip}) without them. */
    FileSplit skipping(List<Long> ranges) {
        return with(
                recordsRead, byteOffset, generation, carried, endOffset, number, report, ranges);
    }

    /** This split's file, format and schema with the rest as given. */
    private FileSplit with(
            long records,
            long offset,
            int newGeneration,
            List<String> files,
            long end,
            long n,
            FileRead read,
            List<Long> ranges) {
        return new FileSplit(
                path, format, schema, records, offset, newGeneration, files, end, n, read, ranges);
    }

    /** Whether the record that makes {@code records} records read is one to read past. */
    boolean skips(long records) {
        for (int i = 0; i + 1 < skip.size(); i += 2) {
            if (records > skip.get(i) && records <= skip.get(i + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Whether this is a finished split whose report is kept ({@link #report}). */
    boolean isReport() {
        return report != null;
    }

    @Override
    public String splitId() {
        return path;
    }

    @Override
    public String toString() {
        return "FileSplit["
                + path
                + " "
                + format
                + " read="
                + recordsRead
                + " offset="
                + byteOffset
                + (endOffset >= 0 ? " end=" + endOffset : "")
                + (number >= 0 ? " #" + number : "")
                + (report != null ? " finished" : "")
                + (skip.isEmpty() ? "" : " skip=" + skip)
                + "]";
    }
}
