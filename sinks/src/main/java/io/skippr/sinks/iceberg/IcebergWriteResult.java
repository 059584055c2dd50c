package io.skippr.sinks.iceberg;

import io.skippr.core.record.CommittedPosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
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
 * @param deleteFiles write_mode merge: the equality delete files on the stream's key that go into
 *     the same row delta as {@code dataFiles}, in Iceberg's JSON form; empty for an append
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
        String cursorType,
        List<String> deleteFiles) {

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
        deleteFiles = List.copyOf(deleteFiles);
    }

    /** A result without delete files: an append's, or an end. */
    public IcebergWriteResult(
            Kind kind,
            int subtask,
            int parallelism,
            String stream,
            String table,
            List<String> dataFiles,
            long rows,
            String cursor,
            String cursorType) {
        this(
                kind,
                subtask,
                parallelism,
                stream,
                table,
                dataFiles,
                rows,
                cursor,
                cursorType,
                List.of());
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

    /** One stream's written files, with their rows' count and highest cursor value. */
    public static IcebergWriteResult files(
            int subtask,
            int parallelism,
            String stream,
            List<? extends ContentFile<?>> dataFiles,
            long rows,
            String cursor,
            String cursorType,
            List<? extends ContentFile<?>> deleteFiles) {
        return new IcebergWriteResult(
                Kind.FILES,
                subtask,
                parallelism,
                stream,
                IcebergTables.name(stream),
                dataFiles.stream().map(IcebergWriteResult::json).toList(),
                rows,
                cursor,
                cursorType,
                deleteFiles.stream().map(IcebergWriteResult::json).toList());
    }

    public static String json(ContentFile<?> file) {
        return ContentFileParser.toJson(file, PartitionSpec.unpartitioned());
    }

    /** The data files, read back from their JSON form. */
    public List<DataFile> files() {
        return parse(dataFiles, DataFile.class);
    }

    /** The equality delete files, read back from their JSON form. */
    public List<DeleteFile> deletes() {
        return parse(deleteFiles, DeleteFile.class);
    }

    private static <F> List<F> parse(List<String> texts, Class<F> kind) {
        List<F> files = new ArrayList<>(texts.size());
        for (String text : texts) {
            try {
                files.add(
                        kind.cast(
                                ContentFileParser.fromJson(
                                        JsonUtil.mapper().readTree(text),
                                        PartitionSpec.unpartitioned())));
            } catch (IOException e) {
                throw new UncheckedIOException("unreadable file entry: " + text, e);
            }
        }
        return files;
    }
}
