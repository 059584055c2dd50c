package io.skippr.sinks.files;

import java.io.Serializable;

/**
 * Where and how a file sink writes: final files go to {@code <stream>/<name>} in the store, commit
 * records to {@code _skippr/commits/}; writers finish files in the store's local staging folder.
 *
 * @param run this job start's run number, from the sink's {@link CommitLog}
 * @param rollBytes roll to a new file after this many bytes
 */
public record FileSinkSettings(
        FileStore store,
        String pipeline,
        long run,
        boolean bounded,
        FileFormat format,
        String compression,
        long rollBytes)
        implements Serializable {

    public static final long DEFAULT_ROLL_BYTES = 128L * 1024 * 1024;

    /** The file extension: the format's, plus {@code .gz} for gzip-compressed text. */
    public static String extension(FileFormat format, String compression) {
        return format != FileFormat.PARQUET && "gzip".equals(compression)
                ? format.extension() + ".gz"
                : format.extension();
    }

    public CommitLog commitLog() {
        return new CommitLog(store);
    }
}
