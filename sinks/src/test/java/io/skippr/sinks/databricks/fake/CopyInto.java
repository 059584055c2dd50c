package io.skippr.sinks.databricks.fake;

import io.skippr.sinks.databricks.fake.SqlTokens.Kind;
import io.skippr.sinks.databricks.fake.SqlTokens.Token;
import io.skippr.sinks.databricks.fake.UnityCatalog.Defaults;
import io.skippr.sinks.databricks.fake.UnityCatalog.Table;
import io.skippr.sinks.testing.DuckDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code COPY INTO <table> FROM '/Volumes/<catalog>/<schema>/<volume>/<path>' FILEFORMAT = PARQUET
 * [FILES = ('a.parquet', ...)] [FORMAT_OPTIONS ('mergeSchema' = ...)] [COPY_OPTIONS ('mergeSchema'
 * = ..., 'force' = ...)]}: each Parquet file is read with an in-memory DuckDB and its rows inserted
 * into the backing table, columns matched by name case-insensitively, in the statement's
 * transaction. As in Databricks, a file already loaded into the table (by its path, whatever its
 * content now) is skipped unless {@code 'force' = 'true'}; the load history is kept per table in
 * the backing database, in the same transaction, so a failed load remembers nothing. With {@code
 * mergeSchema} a file's columns the table lacks are added to it; without, they fail the statement.
 * Without {@code FILES} every file under the path is loaded (names starting with {@code _} or
 * {@code .} are skipped, as Spark does). Any other form or option is refused.
 */
final class CopyInto {
    private static final int BATCH = 1000;

    private final Connection pg;
    private final UnityCatalog catalog;
    private final Defaults defaults;
    private final List<Token> tokens;

    private List<String> files;
    private boolean mergeSchema;
    private boolean force;

    CopyInto(Connection pg, UnityCatalog catalog, Defaults defaults, List<Token> tokens) {
        this.pg = pg;
        this.catalog = catalog;
        this.defaults = defaults;
        this.tokens = tokens;
    }

    Result run() throws DatabricksError, SQLException, IOException {
        int i = 2;
        List<String> name = new ArrayList<>();
        while (true) {
            Token t = at(i++);
            if (!t.isIdentifier()) {
                throw DatabricksError.syntax("'" + t.text() + "'");
            }
            name.add(t.text());
            if (!at(i).is(".")) {
                break;
            }
            i++;
        }
        if (at(i).is("(") || at(i).is("BY")) {
            throw DatabricksError.unsupported("COPY INTO with a column list or BY POSITION");
        }
        if (!at(i++).is("FROM")) {
            throw DatabricksError.syntax("'" + at(i - 1).text() + "'");
        }
        Token from = at(i++);
        if (from.is("(")) {
            throw DatabricksError.unsupported("COPY INTO from a SELECT");
        }
        if (from.kind() != Kind.STRING) {
            throw DatabricksError.syntax("'" + from.text() + "'");
        }
        if (i < tokens.size() && at(i).is("WITH")) {
            throw DatabricksError.unsupported("COPY INTO with a credential or encryption");
        }
        i = options(i);
        Table table = catalog.table(pg, name, defaults);
        if (!UnityCatalog.tableExists(pg, table)) {
            throw DatabricksError.tableNotFound(table.display());
        }
        Location location = location(from.text());
        try (Statement st = pg.createStatement()) {
            // one COPY INTO a table at a time, so that two never both load a file
            st.execute("LOCK TABLE " + table.pg() + " IN SHARE ROW EXCLUSIVE MODE");
        }
        long oid = oid(table);
        long rows = 0;
        for (Path file : files(location)) {
            String key = location.display(file);
            if (!force && loaded(oid, key)) {
                continue;
            }
            rows += load(file, table);
            remember(oid, key);
        }
        return Result.counts(
                List.of("num_affected_rows", "num_inserted_rows", "num_skipped_corrupt_files"),
                List.of(rows, rows, 0L));
    }

    private Token at(int i) throws DatabricksError {
        if (i >= tokens.size()) {
            throw DatabricksError.syntax("end of input");
        }
        return tokens.get(i);
    }

    private int options(int i) throws DatabricksError {
        boolean parquet = false;
        while (i < tokens.size()) {
            String key = at(i).text().toUpperCase(Locale.ROOT);
            switch (key) {
                case "FILEFORMAT" -> {
                    expect(i + 1, "=");
                    String format = at(i + 2).text().toUpperCase(Locale.ROOT);
                    if (!format.equals("PARQUET")) {
                        throw DatabricksError.unsupported("FILEFORMAT = " + format);
                    }
                    parquet = true;
                    i += 3;
                }
                case "FILES" -> {
                    expect(i + 1, "=");
                    expect(i + 2, "(");
                    files = new ArrayList<>();
                    i += 3;
                    while (!at(i).is(")")) {
                        if (at(i).kind() != Kind.STRING) {
                            throw DatabricksError.syntax("'" + at(i).text() + "'");
                        }
                        files.add(at(i++).text());
                        if (at(i).is(",")) {
                            i++;
                        }
                    }
                    i++;
                }
                case "FORMAT_OPTIONS", "COPY_OPTIONS" -> {
                    expect(i + 1, "(");
                    i += 2;
                    while (!at(i).is(")")) {
                        String option = at(i).text();
                        expect(i + 1, "=");
                        String value = at(i + 2).text().toLowerCase(Locale.ROOT);
                        option(key, option, value);
                        i += 3;
                        if (at(i).is(",")) {
                            i++;
                        }
                    }
                    i++;
                }
                default ->
                        throw DatabricksError.unsupported(
                                "COPY INTO " + at(i).text() + " (PATTERN, VALIDATE, ...)");
            }
        }
        if (!parquet) {
            throw DatabricksError.syntax("end of input (FILEFORMAT is required)");
        }
        return i;
    }

    private void option(String clause, String option, String value) throws DatabricksError {
        boolean on =
                switch (value) {
                    case "true" -> true;
                    case "false" -> false;
                    default ->
                            throw DatabricksError.unsupported(
                                    clause + " '" + option + "' = '" + value + "'");
                };
        if (option.equals("mergeSchema")) {
            if (clause.equals("COPY_OPTIONS")) {
                mergeSchema = on;
            }
            // FORMAT_OPTIONS' mergeSchema merges the files' schemas; each file is read on its own
        } else if (option.equals("force") && clause.equals("COPY_OPTIONS")) {
            force = on;
        } else {
            throw DatabricksError.unsupported(clause + " '" + option + "'");
        }
    }

    private void expect(int i, String symbol) throws DatabricksError {
        if (!at(i).is(symbol)) {
            throw DatabricksError.syntax("'" + at(i).text() + "'");
        }
    }

    /** A path in a volume: the volume's folder, the path under it and the path as written. */
    private record Location(String volume, Path folder, String relative) {
        Path path() {
            return relative.isEmpty() ? folder : folder.resolve(relative);
        }

        String display(Path file) {
            return volume + folder.relativize(file).toString().replace('\\', '/');
        }
    }

    private Location location(String written) throws DatabricksError, SQLException {
        String path = written.startsWith("dbfs:") ? written.substring("dbfs:".length()) : written;
        if (!path.startsWith("/Volumes/")) {
            throw DatabricksError.unsupported(
                    "COPY INTO from a location outside a volume (" + written + ")");
        }
        String[] parts = path.substring("/Volumes/".length()).split("/", 4);
        if (parts.length < 3) {
            throw pathNotFound(written);
        }
        Optional<Path> folder = catalog.findVolume(pg, parts[0], parts[1], parts[2]);
        if (folder.isEmpty()) {
            throw pathNotFound(written);
        }
        String relative = parts.length == 4 ? parts[3] : "";
        while (relative.endsWith("/")) {
            relative = relative.substring(0, relative.length() - 1);
        }
        for (String segment : relative.split("/")) {
            if (segment.equals("..") || segment.equals(".")) {
                throw pathNotFound(written);
            }
        }
        String volume =
                "/Volumes/"
                        + UnityCatalog.fold(parts[0])
                        + "/"
                        + UnityCatalog.fold(parts[1])
                        + "/"
                        + UnityCatalog.fold(parts[2])
                        + "/";
        return new Location(volume, folder.get(), relative);
    }

    private static DatabricksError pathNotFound(String path) {
        return new DatabricksError("PATH_NOT_FOUND", "42K03", "Path does not exist: " + path + ".");
    }

    private List<Path> files(Location location) throws DatabricksError, IOException {
        Path dir = location.path();
        List<Path> out = new ArrayList<>();
        if (files != null) {
            for (String f : files) {
                if (f.contains("..")) {
                    throw pathNotFound(f);
                }
                Path file = dir.resolve(f.startsWith("/") ? f.substring(1) : f);
                if (!Files.isRegularFile(file)) {
                    throw pathNotFound("dbfs:" + location.display(file));
                }
                out.add(file);
            }
            return out;
        }
        if (!Files.isDirectory(dir)) {
            throw pathNotFound("dbfs:" + location.display(dir));
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith("_"))
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .forEach(out::add);
        }
        return out;
    }

    private long oid(Table table) throws SQLException {
        try (PreparedStatement st = pg.prepareStatement("SELECT to_regclass(?)::oid")) {
            st.setString(1, table.pg());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private boolean loaded(long oid, String key) throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT 1 FROM \"_fake\".copy_history WHERE table_oid = ? AND path = ?")) {
            st.setLong(1, oid);
            st.setString(2, key);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void remember(long oid, String key) throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "INSERT INTO \"_fake\".copy_history VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            st.setLong(1, oid);
            st.setString(2, key);
            st.executeUpdate();
        }
    }

    /** The table's columns (lower-case name to PostgreSQL type), in order. */
    private Map<String, String> columns(Table table) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT column_name, udt_name FROM information_schema.columns"
                                + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            st.setString(1, table.pgSchema());
            st.setString(2, UnityCatalog.standIn(table.name()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    columns.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return columns;
    }

    /** Inserts the file's rows into the table, matching columns by name; answers the row count. */
    private long load(Path file, Table table) throws SQLException, DatabricksError {
        try (Connection duck = DuckDb.reader();
                Statement st = duck.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            String source = "read_parquet(" + SqlTokens.literal(file.toString()) + ")";
            Map<String, String> fileColumns = new LinkedHashMap<>();
            try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + source)) {
                while (rs.next()) {
                    fileColumns.put(rs.getString("column_name"), rs.getString("column_type"));
                }
            }
            Map<String, String> columns = columns(table);
            List<String> missing = new ArrayList<>();
            for (String c : fileColumns.keySet()) {
                if (!columns.containsKey(UnityCatalog.standIn(UnityCatalog.fold(c)))) {
                    missing.add(c);
                }
            }
            if (!missing.isEmpty() && !mergeSchema) {
                throw new DatabricksError(
                        "DELTA_METADATA_MISMATCH",
                        "42KDG",
                        "A schema mismatch detected when writing to the Delta table "
                                + table.display()
                                + ": the data has columns the table does not ("
                                + String.join(
                                        ", ",
                                        missing.stream().map(DatabricksError::display).toList())
                                + "). To enable schema migration, set COPY_OPTIONS ('mergeSchema' ="
                                + " 'true').");
            }
            for (String c : missing) {
                String pgType = pgType(fileColumns.get(c));
                UnityCatalog.checkLength(UnityCatalog.fold(c));
                try (Statement alter = pg.createStatement()) {
                    alter.execute(
                            "ALTER TABLE "
                                    + table.pg()
                                    + " ADD COLUMN "
                                    + SqlTokens.quote(UnityCatalog.standIn(UnityCatalog.fold(c)))
                                    + " "
                                    + pgType);
                }
                columns.put(UnityCatalog.standIn(UnityCatalog.fold(c)), pgType);
            }
            List<String> targets = new ArrayList<>();
            List<String> selects = new ArrayList<>();
            List<Boolean> binary = new ArrayList<>();
            for (String c : fileColumns.keySet()) {
                String target = UnityCatalog.standIn(UnityCatalog.fold(c));
                boolean bytes = columns.get(target).equals("bytea");
                targets.add(SqlTokens.quote(target));
                binary.add(bytes);
                selects.add(
                        bytes ? SqlTokens.quote(c) : "CAST(" + SqlTokens.quote(c) + " AS VARCHAR)");
            }
            String insert =
                    "INSERT INTO "
                            + table.pg()
                            + " ("
                            + String.join(", ", targets)
                            + ") VALUES ("
                            + String.join(", ", targets.stream().map(t -> "?").toList())
                            + ")";
            long count = 0;
            try (ResultSet rs =
                            st.executeQuery(
                                    "SELECT " + String.join(", ", selects) + " FROM " + source);
                    PreparedStatement out = pg.prepareStatement(insert)) {
                int pending = 0;
                while (rs.next()) {
                    for (int c = 0; c < targets.size(); c++) {
                        if (binary.get(c)) {
                            out.setBytes(c + 1, rs.getBytes(c + 1));
                        } else {
                            out.setString(c + 1, rs.getString(c + 1));
                        }
                    }
                    out.addBatch();
                    count++;
                    if (++pending == BATCH) {
                        out.executeBatch();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    out.executeBatch();
                }
            } catch (java.sql.BatchUpdateException e) {
                throw e.getNextException() != null ? e.getNextException() : e;
            }
            return count;
        }
    }

    /** A Parquet column's type (as DuckDB reads it) as the Delta type mergeSchema adds. */
    private static String pgType(String duckType) throws DatabricksError {
        String t = duckType.toUpperCase(Locale.ROOT);
        if (t.startsWith("DECIMAL")) {
            return "numeric" + t.substring("DECIMAL".length());
        }
        return switch (t) {
            case "BIGINT" -> "bigint";
            case "INTEGER" -> "integer";
            case "SMALLINT", "TINYINT" -> "smallint";
            case "DOUBLE" -> "double precision";
            case "FLOAT" -> "real";
            case "BOOLEAN" -> "boolean";
            case "VARCHAR" -> "text";
            case "DATE" -> "date";
            case "TIMESTAMP", "TIMESTAMP_MS", "TIMESTAMP_NS" -> "timestamp";
            case "TIMESTAMP WITH TIME ZONE" -> "timestamptz";
            case "BLOB" -> "bytea";
            default ->
                    throw DatabricksError.unsupported(
                            "adding a column of the Parquet type " + duckType + " by mergeSchema");
        };
    }
}
