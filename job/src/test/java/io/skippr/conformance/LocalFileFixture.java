package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.LocalFileStore;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

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

    /**
     * Every regular file under {@code root} whose relative path starts with {@code prefix}. A file
     * or folder removed while the walk reads it (a running sink moves its staged files) is left
     * out, as a store's listing leaves out what was deleted before it.
     */
    static List<String> walk(Path root, String prefix) throws Exception {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        Files.walkFileTree(
                root,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                        String key = root.relativize(file).toString().replace('\\', '/');
                        if (attributes.isRegularFile() && key.startsWith(prefix)) {
                            found.add(key);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e)
                            throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return FileVisitResult.CONTINUE;
                        }
                        throw e;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path folder, IOException e)
                            throws IOException {
                        if (e != null && !(e instanceof NoSuchFileException)) {
                            throw e;
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
        Collections.sort(found);
        return found;
    }

    @Override
    FileStore store(Path dir) {
        return new LocalFileStore(dir.resolve("out"));
    }
}
