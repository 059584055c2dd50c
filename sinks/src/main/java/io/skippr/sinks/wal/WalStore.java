package io.skippr.sinks.wal;

import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinks;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pipeline's own store when it has no data sink: Parquet segments under {@code
 * <state>/wal/<stream>/}, committed per checkpoint (or per bounded run) like any exactly-once file
 * sink, and readable with {@code skipprd query}.
 */
public final class WalStore {
    private final Path root;

    public WalStore(Path stateDir) {
        this.root = stateDir.resolve("wal");
    }

    public Path root() {
        return root;
    }

    public SkipprSink sink(SinkContext context) {
        return FileSinks.sink(
                FileSinks.prepare(
                        root, context.pipeline(), context.bounded(), FileFormat.PARQUET, "zstd"),
                context.failPoint());
    }

    /** Per stream, where the next bounded run of {@code pipeline} starts; creates nothing. */
    public Map<String, String> committedPositions(String pipeline) {
        return FileSinks.committedPositions(
                new io.skippr.sinks.files.LocalFileStore(root), pipeline);
    }

    /** Committed segments per stream folder name, in commit order. */
    public Map<String, List<String>> segments() {
        Map<String, List<String>> byStream = new LinkedHashMap<>();
        for (String file : new CommitLog(root).committedFiles()) {
            String stream = Path.of(file).getParent().getFileName().toString();
            byStream.computeIfAbsent(stream, s -> new java.util.ArrayList<>()).add(file);
        }
        return byStream;
    }
}
