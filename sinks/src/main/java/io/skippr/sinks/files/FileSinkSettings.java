package io.skippr.sinks.files;

import java.io.Serializable;

/**
 * Where and how a file sink writes: final files go to {@code <stream>/<name>} in the store (or
 * {@code <stream>/dt=YYYY-MM-DD/<name>} with daily partitions), commit records to {@code
 * _skippr/commits/<pipeline>/}; writers finish files in the store's local staging folder.
 *
 * @param run this job start's run number, from the sink's {@link CommitLog}
 * @param rollBytes roll to a new file after this many bytes
 * @param rollMillis roll to a new file once one has been open this long; 0 rolls only by size,
 *     schema, partition and at checkpoints
 * @param dailyPartitions whether keys hold a Hive-style {@code dt=} folder: the UTC date the file
 *     was opened on; files roll at UTC midnight
 * @param catalog told of each file's stream schema and partition before the file is staged
 */
public record FileSinkSettings(
        FileStore store,
        String pipeline,
        long run,
        boolean bounded,
        FileFormat format,
        String compression,
        long rollBytes,
        long rollMillis,
        boolean dailyPartitions,
        TableCatalog catalog)
        implements Serializable {

    public static final long DEFAULT_ROLL_BYTES = 128L * 1024 * 1024;

    /** The file extension: the format's, plus {@code .gz} for gzip-compressed text. */
    public static String extension(FileFormat format, String compression) {
        return format != FileFormat.PARQUET && "gzip".equals(compression)
                ? format.extension() + ".gz"
                : format.extension();
    }

    /** These settings, rolling files at {@code bytes} and after {@code millis} (0: never). */
    public FileSinkSettings rolling(long bytes, long millis) {
        return new FileSinkSettings(
                store,
                pipeline,
                run,
                bounded,
                format,
                compression,
                bytes,
                millis,
                dailyPartitions,
                catalog);
    }

    /** These settings, with daily {@code dt=} partitions and {@code catalog} kept in step. */
    public FileSinkSettings partitioned(TableCatalog catalog) {
        return new FileSinkSettings(
                store,
                pipeline,
                run,
                bounded,
                format,
                compression,
                rollBytes,
                rollMillis,
                true,
                catalog);
    }

    public CommitLog commitLog() {
        return new CommitLog(store, pipeline);
    }
}
