package io.skippr.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** Finds a pipeline's latest retained checkpoint, to resume a continuous run from it. */
public final class Checkpoints {
    private Checkpoints() {}

    /**
     * The newest {@code chk-N} folder with complete metadata under {@code dir}, if any. A folder
     * that cannot be read is an error, not "no checkpoint": starting over would load rows again.
     */
    public static Optional<Path> latest(Path dir) {
        if (!Files.exists(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> paths = Files.walk(dir, 3)) {
            return paths.filter(p -> p.getFileName().toString().equals("_metadata"))
                    .filter(p -> p.getParent().getFileName().toString().startsWith("chk-"))
                    .max(Comparator.comparing(Checkpoints::modified))
                    .map(Path::getParent);
        } catch (IOException | UncheckedIOException e) {
            throw new UncheckedIOException(
                    "cannot read the checkpoint folder " + dir + ": " + e.getMessage(),
                    e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
        }
    }

    /**
     * Moves the retained checkpoints in {@code dir} aside, into {@code stateDir/superseded/<now>},
     * after a {@code --once} run committed: they hold source positions older than the ones that run
     * committed with its data, and a continuous run resuming from them would load that run's rows
     * again. Returns where they went, or empty when there were none.
     */
    public static Optional<Path> supersede(Path dir, Path stateDir) throws IOException {
        if (latest(dir).isEmpty()) {
            return Optional.empty();
        }
        Path aside =
                stateDir.resolve("superseded").resolve(String.valueOf(System.currentTimeMillis()));
        Files.createDirectories(aside.getParent());
        Files.move(dir, aside);
        return Optional.of(aside);
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
