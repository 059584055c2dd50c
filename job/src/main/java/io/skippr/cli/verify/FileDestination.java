package io.skippr.cli.verify;

import io.skippr.core.naming.Names;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.LocalFileStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A LocalFile data sink's Parquet files, read by an embedded in-memory DuckDB: each stream is a
 * view over {@code read_parquet} of the files its pipeline's commit log lists as committed (files
 * of a run that did not complete, or still staged, are never read). The log is read once, so the
 * files compared are those committed when verify started.
 */
final class FileDestination extends EmbeddedDuckDbDestination {
    private final Path root;
    private final List<String> committed;

    /**
     * @param duckDb an in-memory DuckDB connection the views are created in
     * @param root the sink's folder
     */
    FileDestination(Connection duckDb, Path root, String pipeline) {
        super(duckDb);
        this.root = root;
        this.committed = new CommitLog(new LocalFileStore(root), pipeline).committedKeys();
    }

    /** The stream's folder, as messages name it. */
    @Override
    public String table(String stream) {
        return root.resolve(folder(stream)).toString();
    }

    @Override
    public String readTable(String stream) {
        return quote(stream);
    }

    /** The view's columns, the view created first; null when no committed file holds the stream. */
    @Override
    public Map<String, String> columns(String stream) throws SQLException {
        String prefix = folder(stream) + "/";
        List<String> files =
                committed.stream()
                        .filter(k -> k.startsWith(prefix) && k.endsWith(".parquet"))
                        .map(k -> "'" + root.resolve(k).toString().replace("'", "''") + "'")
                        .toList();
        if (files.isEmpty()) {
            return null;
        }
        try (Statement s = duckDb.createStatement()) {
            s.execute(
                    "CREATE OR REPLACE TEMP VIEW "
                            + quote(stream)
                            + " AS SELECT * FROM read_parquet(["
                            + files.stream().collect(Collectors.joining(", "))
                            + "], union_by_name = true)");
        }
        return describe(stream);
    }

    private static String folder(String stream) {
        return Names.snake(stream);
    }
}
