package io.skippr.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The quickstart example as committed (its skippr.yml and data, not what a local run left). */
final class Quickstart {
    private Quickstart() {}

    /** Copies the quickstart into {@code dir}; returns its skippr.yml there. */
    static Path copyTo(Path dir) throws IOException {
        Path source = Path.of("../examples/quickstart");
        try (Stream<Path> files = Files.walk(source)) {
            for (Path p :
                    files.filter(Files::isRegularFile)
                            .filter(
                                    p -> {
                                        Path rel = source.relativize(p);
                                        return rel.toString().equals("skippr.yml")
                                                || rel.startsWith("data");
                                    })
                            .toList()) {
                Path target = dir.resolve(source.relativize(p).toString());
                Files.createDirectories(target.getParent());
                Files.copy(p, target);
            }
        }
        return dir.resolve("skippr.yml");
    }
}
