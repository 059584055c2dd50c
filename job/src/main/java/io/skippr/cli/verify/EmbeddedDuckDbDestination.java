package io.skippr.cli.verify;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A destination verify reads through an embedded, in-memory DuckDB it fills itself (views over
 * files, or tables loaded from a lake): compared as a DuckDB destination, whose columns keep the
 * source's names and whose JSON columns hold the text written.
 */
abstract class EmbeddedDuckDbDestination implements Destination {
    protected final Connection duckDb;

    EmbeddedDuckDbDestination(Connection duckDb) {
        this.duckDb = duckDb;
    }

    @Override
    public final Canonical.Dialect dialect() {
        return Canonical.Dialect.DUCKDB;
    }

    @Override
    public final Reader reader() {
        return Reader.jdbc(duckDb);
    }

    @Override
    public Canonical.Form form() {
        return new Canonical.Form(true, false); // JSON columns hold the text written
    }

    @Override
    public final String column(String sourceColumn) {
        return sourceColumn; // Parquet fields and Iceberg columns keep the source's names
    }

    @Override
    public final String quote(String column) {
        return "\"" + column.replace("\"", "\"\"") + "\"";
    }

    /** The columns of {@code name} (a table or view of the embedded DuckDB) and their types. */
    protected final Map<String, String> describe(String name) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        for (String[] row : reader().query("DESCRIBE " + quote(name), List.of())) {
            columns.put(row[0], row[1]);
        }
        return columns;
    }
}
