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
 * @param deadletterRun for a deadletter sink, the data run whose deadletters it takes, recorded
 *     with every commit: a bounded run first removes what earlier attempts of that data run
 *     committed ({@link FileSinks#prepare}); 0 for a data sink
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
        TableCatalog catalog,
        long deadletterRun)
        implements Serializable {

    public FileSinkSettings(
            FileStore store,
            String pipeline,
            long run,
            boolean bounded,
            FileFormat format,
            String compression,
            long rollBytes,
            long rollMillis,
            boolean dailyPartitions,
            TableCatalog catalog) {
        this(
                store,
                pipeline,
                run,
                bounded,
                format,
                compression,
                rollBytes,
                rollMillis,
                dailyPartitions,
                catalog,
                0);
    }

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
                catalog,
                deadletterRun);
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
                catalog,
                deadletterRun);
    }

    /** These settings for the deadletter sink of data run {@code dataRun}. */
    public FileSinkSettings deadletters(long dataRun) {
        return new FileSinkSettings(
                store,
                pipeline,
                run,
                bounded,
                format,
                compression,
                rollBytes,
                rollMillis,
                dailyPartitions,
                catalog,
                dataRun);
    }

    public CommitLog commitLog() {
        return new CommitLog(store, pipeline);
    }
}
