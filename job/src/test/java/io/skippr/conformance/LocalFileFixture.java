package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.LocalFileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

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
    List<String> list(Path dir, String prefix) throws Exception {
        return walk(dir.resolve("out"), prefix);
    }

    /** Every regular file under {@code root} whose relative path starts with {@code prefix}. */
    static List<String> walk(Path root, String prefix) throws Exception {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .map(f -> root.relativize(f).toString().replace('\\', '/'))
                    .filter(key -> key.startsWith(prefix))
                    .sorted()
                    .toList();
        }
    }

    @Override
    FileStore store(Path dir) {
        return new LocalFileStore(dir.resolve("out"));
    }
}
