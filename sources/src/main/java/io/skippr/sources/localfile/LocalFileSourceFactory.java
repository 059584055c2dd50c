package io.skippr.sources.localfile;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.SourceContext;
import io.skippr.core.spi.SourceFactory;
import java.nio.file.Path;
import org.apache.flink.api.connector.source.Source;

/**
 * Builds the {@link LocalFileSource} of a {@code LocalFile} data source from its settings: {@code
 * path} (a glob, relative to the working directory of the process building the job), {@code format}
 * (parquet, jsonl, csv; inferred from extensions when absent), {@code stream} (default: the data
 * source's name).
 */
public final class LocalFileSourceFactory implements SourceFactory {
    public static final String KIND = "LocalFile";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Source<SourceRecord, ?, ?> create(SourceContext context) {
        ResolvedSettings settings = context.settings();
        String path = settings.requireString("path");
        String format = settings.string("format").orElse(null);
        String stream = settings.string("stream").filter(s -> !s.isBlank()).orElse(context.entry());
        return LocalFileSource.of(
                        path, format, stream, context.bounded(), Path.of("").toAbsolutePath())
                .from(context.startPositions().get(stream));
    }

    @Override
    public String compact(String position) {
        return PositionCompaction.compact(position);
    }
}
