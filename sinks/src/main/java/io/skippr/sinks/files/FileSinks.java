package io.skippr.sinks.files;

import io.skippr.core.naming.Names;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.RowCheck;
import io.skippr.core.spi.SkipprSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Prepares a file sink's folder for a run and adds the sink to a job graph. */
public final class FileSinks {
    private FileSinks() {}

    /**
     * Settings for a new run into {@code root}. A bounded run first removes what an earlier run
     * left uncommitted: staging files, final files no commit record lists (renamed by a run that
     * died before recording them), and the files and records of bounded runs that did not complete;
     * so a rerun neither duplicates nor loses rows.
     */
    public static FileSinkSettings prepare(
            Path root, String pipeline, boolean bounded, FileFormat format, String compression) {
        try {
            Files.createDirectories(root);
            CommitLog log = new CommitLog(root);
            if (bounded) {
                for (CommitLog.Commit undone : log.incomplete()) {
                    for (String file : undone.files()) {
                        Files.deleteIfExists(Path.of(file));
                    }
                    Files.deleteIfExists(undone.record());
                }
            }
            long lastRun = log.lastRun();
            Pattern name =
                    Pattern.compile(
                            Pattern.quote(Names.snake(pipeline))
                                    + "-(\\d{6})-\\d{3}-\\d{6}\\.[a-z.]+");
            Set<String> committed = new HashSet<>(log.committedFiles());
            long highestSeen = lastRun;
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    if (file.startsWith(root.resolve(".skippr-staging"))) {
                        continue;
                    }
                    Matcher m = name.matcher(file.getFileName().toString());
                    if (!m.matches()) {
                        continue;
                    }
                    long run = Long.parseLong(m.group(1));
                    highestSeen = Math.max(highestSeen, run);
                    if (bounded && !committed.contains(file.toString())) {
                        Files.delete(file); // renamed by a run that never recorded it
                    }
                }
            }
            if (bounded) {
                deleteTree(root.resolve(".skippr-staging"));
            }
            long run = Math.max(lastRun, highestSeen) + 1;
            return new FileSinkSettings(
                    root.toString(),
                    pipeline,
                    run,
                    bounded,
                    format,
                    compression == null ? format.defaultCompression() : compression,
                    FileSinkSettings.DEFAULT_ROLL_BYTES);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot prepare the sink folder " + root + ": " + e.getMessage(), e);
        }
    }

    /** A {@link SkipprSink} writing {@code settings}' folder through {@link TwoPhaseFileSink}. */
    public static SkipprSink sink(FileSinkSettings settings, FailPoint failPoint) {
        return new SkipprSink() {
            @Override
            public Map<String, String> committedPositions() {
                return settings.commitLog().positions();
            }

            @Override
            public RowCheck loadCheck() {
                return settings.format() == FileFormat.PARQUET
                        ? new ParquetLimits()
                        : RowCheck.NONE;
            }

            @Override
            public void addTo(DataStream<SourceRecord> records, String uid) {
                records.sinkTo(new TwoPhaseFileSink(settings, failPoint)).uid(uid).name(uid);
            }
        };
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
