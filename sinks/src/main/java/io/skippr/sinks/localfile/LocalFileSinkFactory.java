package io.skippr.sinks.localfile;

import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinks;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.LocalFileStore;
import io.skippr.sinks.files.StoresFiles;
import java.nio.file.Path;
import java.util.Map;

/** The LocalFile data sink: exactly-once files in a local folder. */
public final class LocalFileSinkFactory implements SinkFactory, KeepsDeadletters, StoresFiles {
    @Override
    public String kind() {
        return "LocalFile";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("LocalFile");
        return FileSinks.sink(context, store(context));
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return FileSinks.committedPositions(store(context), context.pipeline());
    }

    private static LocalFileStore store(SinkContext context) {
        return new LocalFileStore(
                Path.of(context.settings().requireString("path")).toAbsolutePath());
    }

    @Override
    public FileStore files(SinkContext context) {
        return store(context);
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.Files(
                store(context),
                FileFormat.of(context.settings().string("format").orElse("parquet")));
    }
}
