package io.skippr.sinks.files;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.naming.Names;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.RowCheck;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.bounded.BoundedSinkTopology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Prepares a file sink's folder for a run and adds the sink to a job graph. */
public final class FileSinks {
    private FileSinks() {}

    /**
     * Settings for a new run into the local folder {@code root}; see {@link #prepare(FileStore,
     * String, boolean, FileFormat, String)}.
     */
    public static FileSinkSettings prepare(
            Path root, String pipeline, boolean bounded, FileFormat format, String compression) {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create the sink folder " + root + ": " + e.getMessage(), e);
        }
        return prepare(new LocalFileStore(root), pipeline, bounded, format, compression);
    }

    /**
     * Settings for a new run into {@code store}. A bounded run first removes what an earlier run
     * left uncommitted: staged uploads, published files no commit record lists (published by a run
     * that died before recording them), and the files and records of bounded runs that did not
     * complete; so a rerun neither duplicates nor loses rows.
     */
    public static FileSinkSettings prepare(
            FileStore store,
            String pipeline,
            boolean bounded,
            FileFormat format,
            String compression) {
        return prepare(store, pipeline, bounded, format, compression, 0);
    }

    /**
     * Settings for a new run into {@code store}, as {@link #prepare(FileStore, String, boolean,
     * FileFormat, String)}; for the deadletter sink of data run {@code deadletterRun} (0: a data
     * sink), a run, bounded or continuous, also removes the files and records of every earlier
     * bounded run that took that data run's deadletters. Their data did not commit (a data run that
     * commits is the last of its number), and this run deadletters the same records again: without
     * the removal they would be there twice. A bounded run's data sink commits only after this
     * run's deadletters did. A continuous run's commits are never removed, so a restored checkpoint
     * finds its deadletters where it left them.
     */
    public static FileSinkSettings prepare(
            FileStore store,
            String pipeline,
            boolean bounded,
            FileFormat format,
            String compression,
            long deadletterRun) {
        try {
            CommitLog log = new CommitLog(store, pipeline);
            // before anything is removed; a deadletter sink commits no positions: the data sink
            // guards the run
            long after = bounded && deadletterRun == 0 ? log.rowsAfterPositions() : 0;
            if (after > 0) {
                throw io.skippr.core.spi.OnceAfterContinuous.refusal(
                        pipeline, store.describe(), after, false);
            }
            if (bounded) {
                for (CommitLog.Commit undone : log.incomplete()) {
                    for (String file : undone.files()) {
                        store.delete(file);
                    }
                    store.delete(undone.record());
                }
            }
            for (CommitLog.Commit replaced : log.effective()) {
                if (deadletterRun > 0
                        && replaced.bounded()
                        && replaced.deadletterRun() == deadletterRun) {
                    for (String file : replaced.files()) {
                        store.delete(file);
                    }
                    store.delete(replaced.record());
                }
            }
            long lastRun = log.lastRun();
            Pattern name =
                    Pattern.compile(
                            "(?:.*/)?"
                                    + Pattern.quote(Names.snake(pipeline))
                                    + "-(\\d{6})-\\d{3}(?:-\\d{6,})?-\\d{6}\\.[a-z.]+");
            Set<String> committed = new HashSet<>(log.committedKeys());
            long highestSeen = lastRun;
            for (String key : store.list("")) {
                Matcher m = name.matcher(key);
                if (key.startsWith("_skippr/") || !m.matches()) {
                    continue;
                }
                highestSeen = Math.max(highestSeen, Long.parseLong(m.group(1)));
                if (bounded && !committed.contains(key)) {
                    store.delete(key); // published by a run that never recorded it
                }
            }
            if (bounded) {
                store.discardStaged(Names.snake(pipeline)); // other pipelines' staging stays
            }
            long run = Math.max(lastRun, highestSeen) + 1;
            return new FileSinkSettings(
                    store,
                    pipeline,
                    run,
                    bounded,
                    format,
                    compression == null ? format.defaultCompression() : compression,
                    FileSinkSettings.DEFAULT_ROLL_BYTES,
                    0,
                    false,
                    TableCatalog.NONE,
                    deadletterRun);
        } catch (IOException e) {
            throw new FileSinkException("prepare the sink at", store, e);
        } finally {
            try {
                store.close();
            } catch (IOException e) {
                // the client is opened again by whoever uses the store next
            }
        }
    }

    /**
     * Per stream, where the next bounded run of {@code pipeline} into {@code store} starts, read
     * from its commit log without {@link #prepare}: nothing is deleted or created.
     */
    public static Map<String, String> committedPositions(FileStore store, String pipeline) {
        try {
            return new CommitLog(store, pipeline).positions();
        } finally {
            try {
                store.close();
            } catch (IOException e) {
                // nothing was written; the client is opened again by whoever uses the store next
            }
        }
    }

    /**
     * The sink of a file-family kind (LocalFile, S3, AzureBlob, GCS, SFTP) writing into {@code
     * store}, in the format, compression and rolling its entry declares.
     */
    public static SkipprSink sink(SinkContext context, FileStore store) {
        return sink(settings(context, store), context.failPoint());
    }

    /**
     * The sink of a kind whose files are read through a catalog (Athena): Parquet in daily {@code
     * dt=} partitions, with {@code catalog} told of every table and partition before its files.
     */
    public static SkipprSink sink(SinkContext context, FileStore store, TableCatalog catalog) {
        return sink(settings(context, store).partitioned(catalog), context.failPoint());
    }

    private static FileSinkSettings settings(SinkContext context, FileStore store) {
        ResolvedSettings settings = context.settings();
        long rollMb = positive(context, "roll_size_mb", 128);
        long rollSeconds =
                settings.integer("roll_interval_seconds").isPresent()
                        ? positive(context, "roll_interval_seconds", 0)
                        : 0;
        return prepare(
                        store,
                        context.pipeline(),
                        context.bounded(),
                        FileFormat.of(settings.string("format").orElse("parquet")),
                        settings.string("compression").orElse(null),
                        context.deadletterRun())
                .rolling(rollMb * 1024 * 1024, rollSeconds * 1000);
    }

    private static long positive(SinkContext context, String field, long otherwise) {
        long value = context.settings().integer(field).orElse(otherwise);
        if (value < 1) {
            throw ConfigException.of(
                    "skippr.yml",
                    context.settings().entry().path()
                            + "."
                            + field
                            + ": must be at least 1, found "
                            + value);
        }
        return value;
    }

    /** A {@link SkipprSink} writing {@code settings}' store through {@link TwoPhaseFileSink}. */
    public static SkipprSink sink(FileSinkSettings settings, FailPoint failPoint) {
        return new SkipprSink() {
            @Override
            public Map<String, String> committedPositions() {
                return settings.commitLog().positions();
            }

            @Override
            public long rowsAfterPositions() {
                return settings.commitLog().rowsAfterPositions();
            }

            @Override
            public RowCheck loadCheck() {
                return settings.format() == FileFormat.PARQUET
                        ? new ParquetLimits()
                        : RowCheck.NONE;
            }

            /** One above the last run the commit log holds (after the undone ones went). */
            @Override
            public long nextRun() {
                return settings.commitLog().lastRun() + 1;
            }

            @Override
            public DataStream<Long> addTo(
                    DataStream<SourceRecord> records, String uid, DataStream<Long> commitAfter) {
                return BoundedSinkTopology.addTo(
                        records,
                        new TwoPhaseFileSink(settings, failPoint),
                        uid,
                        commitAfter,
                        settings.bounded());
            }
        };
    }
}
