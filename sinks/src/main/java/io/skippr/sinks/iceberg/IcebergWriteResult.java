package io.skippr.sinks.iceberg;

import io.skippr.core.record.CommittedPosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.JsonUtil;

/**
 * What a writer subtask hands on at a checkpoint (or the end of a bounded run): the data files it
 * finished for one table, or, in a bounded run, its end. The files are written and complete, but in
 * no snapshot yet.
 *
 * @param dataFiles the data files, in Iceberg's JSON form (path, size, row count, column metrics)
 * @param cursor the highest cursor value among the files' rows, as text, or null; an end's read
 *     position of {@code stream}
 * @param cursorType the cursor column's type kind, or null; {@link CommittedPosition#READ} for a
 *     read position
 */
public record IcebergWriteResult(
        Kind kind,
        int subtask,
        int parallelism,
        String stream,
        String table,
        List<String> dataFiles,
        long rows,
        String cursor,
        String cursorType) {

    /** What a result holds. */
    public enum Kind {
        FILES,
        /**
         * A bounded run's subtask finished: its commit is complete only with every subtask's end.
         * An end with a stream carries that stream's read position, in a continuous run the
         * position of the checkpoint's rows.
         */
        END
    }

    public IcebergWriteResult {
        dataFiles = List.copyOf(dataFiles);
    }

    public static IcebergWriteResult end(int subtask, int parallelism) {
        return new IcebergWriteResult(
                Kind.END, subtask, parallelism, "", "", List.of(), 0, null, null);
    }

    /** An end that carries the read position of one stream of the subtask's input. */
    public static IcebergWriteResult end(
            int subtask, int parallelism, String stream, String readPosition) {
        return new IcebergWriteResult(
                Kind.END,
                subtask,
                parallelism,
                stream,
                "",
                List.of(),
                0,
                readPosition,
                CommittedPosition.READ);
    }

    public static String json(DataFile file) {
        return ContentFileParser.toJson(file, PartitionSpec.unpartitioned());
    }

    /** The data files, read back from their JSON form. */
    public List<DataFile> files() {
        List<DataFile> files = new ArrayList<>(dataFiles.size());
        for (String text : dataFiles) {
            try {
                files.add(
                        (DataFile)
                                ContentFileParser.fromJson(
                                        JsonUtil.mapper().readTree(text),
                                        PartitionSpec.unpartitioned()));
            } catch (IOException e) {
                throw new UncheckedIOException("unreadable data file entry: " + text, e);
            }
        }
        return files;
    }
}
