package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.LocalFileStore;
import java.nio.file.Path;

/** The LocalFile sink, in one format, writing to the folder {@code out}. */
final class LocalFileFixture extends FileStoreFixture {
    LocalFileFixture(String format) {
        super(format);
    }

    @Override
    public String kind() {
        return "LocalFile";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    LocalFile: {path: out, format: " + format + "}\n";
    }

    @Override
    FileStore store(Path dir) {
        return new LocalFileStore(dir.resolve("out"));
    }
}
