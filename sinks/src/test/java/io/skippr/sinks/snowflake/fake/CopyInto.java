package io.skippr.sinks.snowflake.fake;

import io.skippr.sinks.snowflake.fake.QueryResult.Column;
import io.skippr.sinks.snowflake.fake.SqlTokens.Kind;
import io.skippr.sinks.snowflake.fake.SqlTokens.Token;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code COPY INTO <table> FROM @<stage>[/path] [FILES = (...)] [PATTERN = '...'] FILE_FORMAT =
 * (TYPE = PARQUET) [MATCH_BY_COLUMN_NAME = ...] [ON_ERROR = ABORT_STATEMENT] [PURGE = ...] [FORCE =
 * ...]}: each Parquet file is read with an in-memory DuckDB and its rows inserted into the backing
 * table in the statement's transaction. As in Snowflake, a file already loaded into the table (same
 * path and ETag) is skipped unless {@code FORCE = TRUE}; the load history is a table in the backing
 * database, so a rolled-back load is not remembered. Any other form or option is refused.
 */
final class CopyInto {
    private static final int BATCH = 1000;

    private final FakeSession session;
    private final String sql;
    private final List<Token> tokens;

    private List<String> files;
    private Pattern pattern;
    private boolean parquet;
    private String match = "NONE";
    private boolean purge;
    private boolean force;

    CopyInto(FakeSession session, String sql, List<Token> tokens) {
        this.session = session;
        this.sql = sql;
        this.tokens = tokens;
    }

    QueryResult run() throws SnowflakeError, SQLException, IOException {
        int i = 2;
        List<String> name = new ArrayList<>();
        while (true) {
            Token t = at(i++);
            if (!t.isIdentifier()) {
                throw SnowflakeError.compilation("a table name is expected after COPY INTO");
            }
            name.add(t.name());
            if (!at(i).is(".")) {
                break;
            }
            i++;
        }
        if (at(i).is("(")) {
            throw SnowflakeError.unsupported("COPY INTO with a column list");
        }
        if (!at(i++).is("FROM")) {
            throw SnowflakeError.compilation("FROM is expected after the table of COPY INTO");
        }
        Token from = at(i);
        StageRef ref;
        int rest;
        if (from.is("@")) {
            ref = StageRef.parse(sql, from.start());
            rest = ref.end();
        } else if (from.kind() == Kind.STRING && from.text().startsWith("@")) {
            ref = StageRef.parse(from.text(), 0);
            rest = from.end();
        } else if (from.is("(")) {
            throw SnowflakeError.unsupported("COPY INTO with a transformation");
        } else {
            throw SnowflakeError.unsupported("COPY INTO from an external location");
        }
        options(SqlTokens.of(sql.substring(rest)));
        if (!parquet) {
            throw SnowflakeError.unsupported("COPY INTO without FILE_FORMAT = (TYPE = PARQUET)");
        }
        if (name.size() == 3 && !name.get(0).equals(session.database())) {
            throw SnowflakeError.notFound("Database", name.get(0));
        }
        String table = name.get(name.size() - 1);
        String schema = name.size() >= 2 ? name.get(name.size() - 2) : session.schema();
        Map<String, String> columns = columns(schema, table);
        if (columns.isEmpty()) {
            throw SnowflakeError.notFound("Table", session.database() + "." + schema + "." + table);
        }
        Stages.Resolved stage = session.server.stages.resolve(ref, session);
        List<String> keys = keys(stage);
        List<List<String>> rows = new ArrayList<>();
        Path dir = Files.createTempDirectory("fake-snowflake-copy");
        try {
            for (String key : keys) {
                String display = stage.display() + key.substring(stage.prefix().length());
                String eTag;
                try {
                    eTag = session.server.stages.eTag(key);
                } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
                    throw new SnowflakeError(
                            3001, "02000", "Remote file '" + display + "' was not found.");
                }
                if (!force && loaded(schema, table, key, eTag)) {
                    continue;
                }
                Optional<Path> file = session.server.stages.download(key, dir);
                if (file.isEmpty()) {
                    throw new SnowflakeError(
                            3001, "02000", "Remote file '" + display + "' was not found.");
                }
                long count = load(file.get(), schema, table, columns);
                remember(schema, table, key, eTag);
                rows.add(
                        Arrays.asList(
                                display,
                                "LOADED",
                                Long.toString(count),
                                Long.toString(count),
                                "1",
                                "0",
                                null,
                                null,
                                null,
                                null));
            }
        } finally {
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        if (purge) {
            for (List<String> row : rows) {
                session.server.stages.delete(
                        stage.prefix() + row.get(0).substring(stage.display().length()));
            }
        }
        if (rows.isEmpty()) {
            return QueryResult.status("Copy executed with 0 files processed.", QueryResult.COPY);
        }
        return new QueryResult(
                List.of(
                        Column.text("file"),
                        Column.text("status"),
                        Column.fixed("rows_parsed"),
                        Column.fixed("rows_loaded"),
                        Column.fixed("error_limit"),
                        Column.fixed("errors_seen"),
                        Column.text("first_error"),
                        Column.fixed("first_error_line"),
                        Column.fixed("first_error_character"),
                        Column.text("first_error_column_name")),
                rows,
                QueryResult.COPY);
    }

    private Token at(int i) throws SnowflakeError {
        if (i >= tokens.size()) {
            throw SnowflakeError.compilation("unexpected end of COPY INTO");
        }
        return tokens.get(i);
    }

    private void options(List<Token> opts) throws SnowflakeError {
        int i = 0;
        while (i < opts.size()) {
            String key = opts.get(i).text().toUpperCase(Locale.ROOT);
            if (opts.get(i).kind() != Kind.WORD
                    || i + 2 > opts.size()
                    || !opts.get(i + 1).is("=")) {
                throw SnowflakeError.compilation(
                        "unexpected '" + opts.get(i).text() + "' in COPY INTO");
            }
            i += 2;
            switch (key) {
                case "FILES" -> {
                    files = new ArrayList<>();
                    i = expect(opts, i, "(");
                    while (!opts.get(i).is(")")) {
                        if (opts.get(i).kind() != Kind.STRING) {
                            throw SnowflakeError.compilation("FILES lists quoted file names");
                        }
                        files.add(opts.get(i++).text());
                        if (opts.get(i).is(",")) {
                            i++;
                        }
                    }
                    i++;
                }
                case "PATTERN" -> pattern = Pattern.compile(opts.get(i++).text());
                case "FILE_FORMAT" -> {
                    i = expect(opts, i, "(");
                    while (!opts.get(i).is(")")) {
                        String option = opts.get(i).text().toUpperCase(Locale.ROOT);
                        if (!option.equals("TYPE") || !opts.get(i + 1).is("=")) {
                            throw SnowflakeError.unsupported("FILE_FORMAT option " + option);
                        }
                        String type = opts.get(i + 2).text().toUpperCase(Locale.ROOT);
                        if (!type.equals("PARQUET")) {
                            throw SnowflakeError.unsupported("FILE_FORMAT TYPE = " + type);
                        }
                        parquet = true;
                        i += 3;
                        if (opts.get(i).is(",")) {
                            i++;
                        }
                    }
                    i++;
                }
                case "MATCH_BY_COLUMN_NAME" -> {
                    match = opts.get(i++).text().toUpperCase(Locale.ROOT);
                    if (!List.of("CASE_SENSITIVE", "CASE_INSENSITIVE", "NONE").contains(match)) {
                        throw SnowflakeError.compilation(
                                "invalid value '" + match + "' for MATCH_BY_COLUMN_NAME");
                    }
                }
                case "ON_ERROR" -> {
                    String value = opts.get(i++).text().toUpperCase(Locale.ROOT);
                    if (!value.equals("ABORT_STATEMENT")) {
                        throw SnowflakeError.unsupported("ON_ERROR = " + value);
                    }
                }
                case "PURGE" -> purge = bool(opts.get(i++));
                case "FORCE" -> force = bool(opts.get(i++));
                default -> throw SnowflakeError.unsupported("COPY INTO option " + key);
            }
        }
    }

    private static int expect(List<Token> opts, int i, String symbol) throws SnowflakeError {
        if (i >= opts.size() || !opts.get(i).is(symbol)) {
            throw SnowflakeError.compilation("'" + symbol + "' expected in COPY INTO");
        }
        return i + 1;
    }

    static boolean bool(Token t) throws SnowflakeError {
        String v = t.text().toUpperCase(Locale.ROOT);
        if (v.equals("TRUE")) {
            return true;
        }
        if (v.equals("FALSE")) {
            return false;
        }
        throw SnowflakeError.compilation("TRUE or FALSE expected, not '" + t.text() + "'");
    }

    private List<String> keys(Stages.Resolved stage) {
        String base = stage.key();
        if (files != null) {
            String dir = base.isEmpty() || base.endsWith("/") ? base : base + "/";
            return files.stream().map(f -> dir + (f.startsWith("/") ? f.substring(1) : f)).toList();
        }
        List<String> keys = new ArrayList<>();
        for (S3Object file : session.server.stages.files(stage)) {
            String relative = session.server.stages.relative(stage, file);
            if (pattern == null || pattern.matcher(relative).matches()) {
                keys.add(file.key());
            }
        }
        return keys;
    }

    private Map<String, String> columns(String schema, String table) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement st =
                session.pg.prepareStatement(
                        "SELECT column_name, udt_name FROM information_schema.columns"
                                + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            st.setString(1, BackingNames.standIn(schema));
            st.setString(2, BackingNames.standIn(table));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    columns.put(BackingNames.original(rs.getString(1)), rs.getString(2));
                }
            }
        }
        return columns;
    }

    private boolean loaded(String schema, String table, String key, String eTag)
            throws SQLException {
        try (PreparedStatement st =
                session.pg.prepareStatement(
                        "SELECT 1 FROM \"_fake\".load_history WHERE schema_name = ? AND table_name = ?"
                                + " AND file_key = ? AND etag = ?")) {
            st.setString(1, schema);
            st.setString(2, table);
            st.setString(3, key);
            st.setString(4, eTag);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void remember(String schema, String table, String key, String eTag)
            throws SQLException {
        try (PreparedStatement st =
                session.pg.prepareStatement(
                        "INSERT INTO \"_fake\".load_history (schema_name, table_name, file_key, etag)"
                                + " VALUES (?, ?, ?, ?)")) {
            st.setString(1, schema);
            st.setString(2, table);
            st.setString(3, key);
            st.setString(4, eTag);
            st.executeUpdate();
        }
    }

    /** Inserts the file's rows into the table, matching columns by name; answers the row count. */
    private long load(Path file, String schema, String table, Map<String, String> columns)
            throws SQLException, SnowflakeError {
        try (Connection duck = session.server.duckDb();
                Statement st = duck.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            String source = "read_parquet(" + SqlTokens.literal(file.toString()) + ")";
            Map<String, String> fileColumns = new LinkedHashMap<>();
            try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + source)) {
                while (rs.next()) {
                    fileColumns.put(rs.getString("column_name"), rs.getString("column_type"));
                }
            }
            if (match.equals("NONE")) {
                if (fileColumns.size() != 1 || columns.size() != 1) {
                    throw new SnowflakeError(
                            2019,
                            "0A000",
                            "SQL compilation error:\nPARQUET file format can produce one and only one"
                                    + " column of type variant, object, or array. Load data into"
                                    + " separate columns using the MATCH_BY_COLUMN_NAME copy option or"
                                    + " copy with transformation.");
                }
                throw SnowflakeError.unsupported(
                        "COPY INTO of a Parquet file as one VARIANT column");
            }
            List<String> targets = new ArrayList<>();
            List<String> selects = new ArrayList<>();
            List<Boolean> binary = new ArrayList<>();
            for (Map.Entry<String, String> fc : fileColumns.entrySet()) {
                String target = null;
                for (String c : columns.keySet()) {
                    if (match.equals("CASE_SENSITIVE")
                            ? c.equals(fc.getKey())
                            : c.equalsIgnoreCase(fc.getKey())) {
                        target = c;
                    }
                }
                if (target == null) {
                    continue;
                }
                String pgType = columns.get(target);
                String column = SqlTokens.quote(fc.getKey());
                targets.add(SqlTokens.pg(target));
                binary.add(pgType.equals("bytea"));
                if (pgType.equals("bytea")) {
                    selects.add(column);
                } else if (pgType.equals("jsonb") && !fc.getValue().equals("VARCHAR")) {
                    selects.add("CAST(to_json(" + column + ") AS VARCHAR)");
                } else if (fc.getValue().equals("FLOAT")) {
                    // a Parquet float lands in a FLOAT (a double) as its exact value, not as the
                    // shortest text of the float (0.33333334 is another double)
                    selects.add("CAST(CAST(" + column + " AS DOUBLE) AS VARCHAR)");
                } else {
                    selects.add("CAST(" + column + " AS VARCHAR)");
                }
            }
            if (targets.isEmpty()) {
                throw SnowflakeError.unsupported(
                        "COPY INTO where no column of the file matches the table");
            }
            String insert =
                    "INSERT INTO "
                            + SqlTokens.pg(schema)
                            + "."
                            + SqlTokens.pg(table)
                            + " ("
                            + String.join(", ", targets)
                            + ") VALUES ("
                            + String.join(", ", targets.stream().map(t -> "?").toList())
                            + ")";
            long count = 0;
            try (ResultSet rs =
                            st.executeQuery(
                                    "SELECT " + String.join(", ", selects) + " FROM " + source);
                    PreparedStatement out = session.pg.prepareStatement(insert)) {
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
            }
            return count;
        }
    }
}
