package io.skippr.cli.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The temporary folder an embedded, in-memory DuckDB spills to beyond its memory limit when verify
 * copies a destination's rows into it; removed at {@link #close}.
 */
final class SpillFolder implements AutoCloseable {
    private final Path path;

    /** Creates the folder and points {@code duckDb}'s {@code temp_directory} at it. */
    SpillFolder(Connection duckDb, String prefix) throws SQLException {
        try {
            path = Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (Statement s = duckDb.createStatement()) {
            s.execute("SET temp_directory = '" + path.toString().replace("'", "''") + "'");
        }
    }

    @Override
    public void close() {
        delete(path);
    }

    /** Removes {@code folder} and everything in it, if it exists; a file that stays is left. */
    static void delete(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}
