package io.skippr.sinks.localfile;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.files.FileSinks;
import io.skippr.sinks.files.LocalFileStore;
import java.nio.file.Path;

/** The LocalFile data sink: exactly-once files in a local folder. */
public final class LocalFileSinkFactory implements SinkFactory {
    @Override
    public String kind() {
        return "LocalFile";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("LocalFile");
        ResolvedSettings settings = context.settings();
        Path root = Path.of(settings.requireString("path")).toAbsolutePath();
        return FileSinks.sink(context, new LocalFileStore(root));
    }
}
