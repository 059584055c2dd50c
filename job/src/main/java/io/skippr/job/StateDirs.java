package io.skippr.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Where a pipeline keeps its state (WAL store, checkpoints, logs): {@code $SKIPPR_STATE_DIR/
 * <pipeline>}, else {@code .skippr/<pipeline>} next to skippr.yml. Created owner-only.
 */
public final class StateDirs {
    public static final String ENV_VAR = "SKIPPR_STATE_DIR";

    private StateDirs() {}

    public static Path of(Path configFile, String pipeline, Map<String, String> env) {
        String base = env.get(ENV_VAR);
        Path root =
                base != null && !base.isBlank()
                        ? Path.of(base)
                        : configFile.toAbsolutePath().getParent().resolve(".skippr");
        Path dir = root.toAbsolutePath().resolve(pipeline);
        try {
            if (!Files.exists(root)) {
                Files.createDirectories(root);
                ownerOnly(root);
            }
            if (!Files.exists(dir)) {
                Files.createDirectories(dir);
                ownerOnly(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create the state folder " + dir + ": " + e.getMessage(), e);
        }
        return dir;
    }

    private static void ownerOnly(Path dir) throws IOException {
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: keep its defaults
        }
    }

    public static Path checkpoints(Path stateDir) {
        return stateDir.resolve("checkpoints");
    }
}
