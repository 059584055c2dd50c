package io.skippr.sinks.snowflake.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.sinks.snowflake.fake.SqlTokens.Kind;
import io.skippr.sinks.snowflake.fake.SqlTokens.Token;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One Snowflake session: its names (database, schema, warehouse, role), its {@code AUTOCOMMIT}
 * parameter and one PostgreSQL connection that carries its transaction.
 *
 * <p>Transactions follow Snowflake: {@code BEGIN} opens one (a second {@code BEGIN} is ignored),
 * {@code COMMIT} and {@code ROLLBACK} end it; with {@code AUTOCOMMIT = FALSE} a statement opens one
 * implicitly. A failed statement inside a transaction undoes only its own effects (a savepoint per
 * statement) and the transaction stays open. DDL ({@code CREATE}, {@code DROP}, {@code ALTER})
 * first commits an open transaction and then runs in a transaction of its own.
 */
final class FakeSession {
    final FakeSnowflake server;
    final long id;
    final String token;
    final String masterToken;
    final String user;
    final Connection pg;
    private final String database;
    private String schema;
    private String warehouse;
    private String role;
    private boolean autocommit = true;
    private boolean inTransaction;
    private volatile Statement running;
    private volatile String runningRequestId;

    /** The request an abort asked to cancel, checked as its backing statement starts. */
    private volatile String cancelled;

    FakeSession(
            FakeSnowflake server,
            long id,
            String token,
            String masterToken,
            String user,
            Connection pg,
            String database,
            String schema,
            String warehouse,
            String role)
            throws SQLException {
        this.server = server;
        this.id = id;
        this.token = token;
        this.masterToken = masterToken;
        this.user = user;
        this.pg = pg;
        this.database = database;
        this.warehouse = warehouse;
        this.role = role;
        pg.setAutoCommit(true);
        try (Statement st = pg.createStatement()) {
            st.execute("SET TimeZone TO 'UTC'");
        }
        useSchema(schema);
    }

    String database() {
        return database;
    }

    String schema() {
        return schema;
    }

    String warehouse() {
        return warehouse;
    }

    String role() {
        return role;
    }

    /** The request being run, for the test to wait on. */
    String runningRequestId() {
        return runningRequestId;
    }

    private void useSchema(String name) throws SQLException {
        try (Statement st = pg.createStatement()) {
            st.execute("SET search_path TO " + SqlTokens.pg(name));
        }
        this.schema = name;
    }

    /** Runs one statement; answers the {@code data} of the response. */
    synchronized ObjectNode execute(String sql, JsonNode bindings, String requestId, String queryId)
            throws SnowflakeError {
        runningRequestId = requestId;
        try {
            List<Token> tokens = new ArrayList<>(SqlTokens.of(sql));
            while (!tokens.isEmpty() && tokens.get(tokens.size() - 1).is(";")) {
                tokens.remove(tokens.size() - 1);
            }
            if (tokens.isEmpty()) {
                throw new SnowflakeError(900, "42000", "Empty SQL statement.");
            }
            int statements = 1 + (int) tokens.stream().filter(t -> t.is(";")).count();
            if (statements > 1) {
                throw new SnowflakeError(
                        8,
                        "0A000",
                        "Actual statement count "
                                + statements
                                + " did not match the desired statement count 1.");
            }
            if (tokens.get(0).is("PUT")) {
                return put(sql, tokens);
            }
            return dispatch(sql, tokens, bindings).data(queryId, this);
        } catch (SQLException e) {
            throw SnowflakeErrors.of(e);
        } catch (IOException e) {
            throw new SnowflakeError(
                    200001, "58030", "fake Snowflake I/O failure: " + e.getMessage());
        } finally {
            runningRequestId = null;
        }
    }

    private QueryResult dispatch(String sql, List<Token> tokens, JsonNode bindings)
            throws SnowflakeError, SQLException, IOException {
        String first =
                tokens.get(0).kind() == Kind.WORD ? tokens.get(0).name() : tokens.get(0).text();
        String second = tokens.size() > 1 ? tokens.get(1).text().toUpperCase(Locale.ROOT) : "";
        switch (first) {
            case "BEGIN", "START" -> {
                if (first.equals("START") && !second.equals("TRANSACTION")) {
                    throw SnowflakeError.unsupported("START " + second);
                }
                if (!inTransaction) {
                    begin();
                }
                return QueryResult.status("Statement executed successfully.", QueryResult.TCL);
            }
            case "COMMIT" -> {
                if (inTransaction) {
                    pg.commit();
                    endTransaction();
                }
                return QueryResult.status("Statement executed successfully.", QueryResult.TCL);
            }
            case "ROLLBACK" -> {
                if (inTransaction) {
                    pg.rollback();
                    endTransaction();
                }
                return QueryResult.status("Statement executed successfully.", QueryResult.TCL);
            }
            case "ALTER" -> {
                if (second.equals("SESSION")) {
                    return alterSession(tokens);
                }
                if (second.equals("TABLE")) {
                    return ddl(tokens);
                }
                throw SnowflakeError.unsupported("ALTER " + second);
            }
            case "USE" -> {
                return use(tokens);
            }
            case "LIST", "LS" -> {
                StageRef ref = stageAt(sql, tokens, 1);
                return server.stages.list(server.stages.resolve(ref, this), pattern(sql, ref));
            }
            case "REMOVE", "RM" -> {
                StageRef ref = stageAt(sql, tokens, 1);
                return server.stages.remove(server.stages.resolve(ref, this), pattern(sql, ref));
            }
            case "COPY" -> {
                if (!second.equals("INTO")) {
                    throw SnowflakeError.unsupported("COPY " + second);
                }
                CopyInto copy = new CopyInto(this, sql, tokens);
                return inStatement(copy::run);
            }
            case "CREATE", "DROP" -> {
                String object = objectKind(tokens);
                return switch (object) {
                    case "TABLE", "SCHEMA" -> ddl(tokens);
                    case "STAGE" -> stage(tokens, first.equals("CREATE"));
                    default -> throw SnowflakeError.unsupported(first + " " + object);
                };
            }
            case "SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE" -> {
                String text = PostgresText.of(tokens, 0, tokens.size(), database);
                return inStatement(() -> passThrough(first, text, bindings));
            }
            default -> throw SnowflakeError.unsupported(first);
        }
    }

    /** The kind of object a CREATE or DROP names, past OR REPLACE, TEMPORARY and the like. */
    private static String objectKind(List<Token> tokens) {
        Set<String> modifiers =
                Set.of(
                        "OR",
                        "REPLACE",
                        "TEMPORARY",
                        "TEMP",
                        "TRANSIENT",
                        "LOCAL",
                        "GLOBAL",
                        "VOLATILE");
        for (int i = 1; i < tokens.size(); i++) {
            String word = tokens.get(i).text().toUpperCase(Locale.ROOT);
            if (!modifiers.contains(word)) {
                return word;
            }
        }
        return "";
    }

    private void begin() throws SQLException {
        pg.setAutoCommit(false);
        inTransaction = true;
    }

    private void endTransaction() throws SQLException {
        pg.setAutoCommit(true);
        inTransaction = false;
    }

    /** Work that must be all or nothing, and that may fail. */
    interface Work {
        QueryResult run() throws SnowflakeError, SQLException, IOException;
    }

    /**
     * Runs a statement as Snowflake does: inside an open transaction under a savepoint, so that its
     * failure undoes only itself; otherwise in a transaction of its own (or, with AUTOCOMMIT off,
     * in a new implicit one).
     */
    private QueryResult inStatement(Work work) throws SnowflakeError, SQLException, IOException {
        if (!inTransaction && !autocommit) {
            begin();
        }
        if (inTransaction) {
            try (Statement st = pg.createStatement()) {
                st.execute("SAVEPOINT fake_statement");
            }
            try {
                QueryResult result = work.run();
                try (Statement st = pg.createStatement()) {
                    st.execute("RELEASE SAVEPOINT fake_statement");
                }
                return result;
            } catch (SnowflakeError | SQLException | IOException | RuntimeException e) {
                try (Statement st = pg.createStatement()) {
                    st.execute("ROLLBACK TO SAVEPOINT fake_statement");
                }
                throw e;
            }
        }
        pg.setAutoCommit(false);
        try {
            QueryResult result = work.run();
            pg.commit();
            return result;
        } catch (SnowflakeError | SQLException | IOException | RuntimeException e) {
            pg.rollback();
            throw e;
        } finally {
            pg.setAutoCommit(true);
        }
    }

    /** DDL: its own transaction, whatever AUTOCOMMIT says (an open one was committed before). */
    private void alone(Work work) throws SnowflakeError, SQLException, IOException {
        pg.setAutoCommit(false);
        try {
            work.run();
            pg.commit();
        } catch (SnowflakeError | SQLException | IOException | RuntimeException e) {
            pg.rollback();
            throw e;
        } finally {
            pg.setAutoCommit(true);
        }
    }

    private QueryResult passThrough(String first, String text, JsonNode bindings)
            throws SQLException, SnowflakeError {
        List<List<Object>> rows = binds(bindings);
        boolean catalog = text.contains("\"INFORMATION_SCHEMA\"");
        if (catalog) {
            // names bound in a catalog query are looked up as PostgreSQL stores them
            rows = rows.stream().map(FakeSession::standIns).toList();
        }
        try (PreparedStatement st = pg.prepareStatement(text)) {
            running = st;
            if (runningRequestId != null && runningRequestId.equals(cancelled)) {
                throw new SQLException("canceling statement due to user request", "57014");
            }
            long count;
            if (rows.size() == 1) {
                set(st, rows.get(0));
                if (st.execute()) {
                    try (var rs = st.getResultSet()) {
                        QueryResult result = QueryResult.of(rs);
                        return catalog ? result.withOriginalNames() : result;
                    }
                }
                count = st.getLargeUpdateCount();
            } else {
                for (List<Object> row : rows) {
                    set(st, row);
                    st.addBatch();
                }
                count = 0;
                for (long n : st.executeLargeBatch()) {
                    count += n;
                }
            }
            return switch (first) {
                case "INSERT" ->
                        QueryResult.counts(
                                QueryResult.INSERT,
                                List.of("number of rows inserted"),
                                List.of(count));
                case "UPDATE" ->
                        QueryResult.counts(
                                QueryResult.UPDATE,
                                List.of(
                                        "number of rows updated",
                                        "number of multi-joined rows updated"),
                                List.of(count, 0L));
                case "DELETE" ->
                        QueryResult.counts(
                                QueryResult.DELETE,
                                List.of("number of rows deleted"),
                                List.of(count));
                // PostgreSQL counts a MERGE's rows together: all are reported as inserted
                case "MERGE" ->
                        QueryResult.counts(
                                QueryResult.MERGE,
                                List.of(
                                        "number of rows inserted",
                                        "number of rows updated",
                                        "number of rows deleted"),
                                List.of(count, 0L, 0L));
                default -> QueryResult.status("Statement executed successfully.", QueryResult.DDL);
            };
        } catch (BatchUpdateException e) {
            throw e.getNextException() != null ? e.getNextException() : e;
        } finally {
            running = null;
        }
    }

    /** {@code row} with each text value over 63 bytes as its {@link BackingNames} stand-in. */
    private static List<Object> standIns(List<Object> row) {
        List<Object> out = new ArrayList<>(row.size());
        for (Object v : row) {
            out.add(v instanceof String s ? BackingNames.standIn(s) : v);
        }
        return out;
    }

    private static void set(PreparedStatement st, List<Object> row) throws SQLException {
        for (int i = 0; i < row.size(); i++) {
            Object v = row.get(i);
            if (v instanceof byte[] bytes) {
                st.setBytes(i + 1, bytes);
            } else {
                st.setObject(i + 1, v);
            }
        }
    }

    /** The driver's bindings ({@code {"1": {"type": "FIXED", "value": "7"}}}) as rows of values. */
    private static List<List<Object>> binds(JsonNode bindings) throws SnowflakeError {
        if (bindings == null || bindings.isNull() || bindings.isEmpty()) {
            return List.of(List.of());
        }
        int n = bindings.size();
        int rows = 1;
        for (int i = 1; i <= n; i++) {
            JsonNode value = bindings.path(Integer.toString(i)).path("value");
            if (value.isArray()) {
                rows = value.size();
            }
        }
        List<List<Object>> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                JsonNode b = bindings.path(Integer.toString(i));
                if (b.isMissingNode()) {
                    throw SnowflakeError.compilation("bind variable " + i + " not set");
                }
                JsonNode value = b.path("value");
                JsonNode v = value.isArray() ? value.get(r) : value;
                row.add(bind(b.path("type").asText(), v == null || v.isNull() ? null : v.asText()));
            }
            out.add(row);
        }
        return out;
    }

    private static Object bind(String type, String value) throws SnowflakeError {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case "FIXED" -> new BigDecimal(value);
            case "REAL" -> Double.valueOf(value);
            case "TEXT" -> value;
            case "BOOLEAN" -> Boolean.valueOf(value.equals("1") || value.equalsIgnoreCase("true"));
            case "DATE" -> LocalDate.ofEpochDay(Math.floorDiv(Long.parseLong(value), 86_400_000L));
            case "TIME" -> LocalTime.ofNanoOfDay(Long.parseLong(value));
            case "TIMESTAMP_NTZ" -> LocalDateTime.ofInstant(nanos(value), ZoneOffset.UTC);
            case "TIMESTAMP_LTZ" -> OffsetDateTime.ofInstant(nanos(value), ZoneOffset.UTC);
            case "BINARY" -> HexFormat.of().parseHex(value);
            default -> throw SnowflakeError.unsupported("binding of type " + type);
        };
    }

    private static Instant nanos(String value) {
        BigDecimal[] parts =
                new BigDecimal(value).divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
        long seconds = parts[0].longValueExact();
        long nanos = parts[1].longValueExact();
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** CREATE/DROP TABLE and SCHEMA, ALTER TABLE (with SWAP WITH): DDL commits first. */
    private QueryResult ddl(List<Token> tokens) throws SnowflakeError, SQLException, IOException {
        if (inTransaction) {
            pg.commit();
            endTransaction();
        }
        List<Token> rest = new ArrayList<>(tokens);
        boolean replace = false;
        if (rest.get(0).is("CREATE")) {
            if (rest.size() > 2 && rest.get(1).is("OR") && rest.get(2).is("REPLACE")) {
                replace = true;
                rest.subList(1, 3).clear();
            }
            rest.removeIf(t -> t.kind() == Kind.WORD && t.text().equalsIgnoreCase("TRANSIENT"));
            for (Token t : rest) {
                if (t.is("CLONE")) {
                    throw SnowflakeError.unsupported("CREATE TABLE ... CLONE");
                }
            }
        }
        for (int i = 0; i + 1 < rest.size(); i++) {
            if (rest.get(i).is("SWAP") && rest.get(i + 1).is("WITH")) {
                return swap(rest, i);
            }
        }
        boolean table = objectKind(rest).equals("TABLE");
        int nameAt = nameIndex(rest);
        String name = nameAt < rest.size() ? rest.get(nameAt).name() : "";
        List<String> sql = new ArrayList<>();
        if (replace) {
            int end = nameAt;
            while (end + 2 < rest.size() && rest.get(end + 1).is(".")) {
                end += 2;
            }
            sql.add(
                    "DROP "
                            + (table ? "TABLE" : "SCHEMA")
                            + " IF EXISTS "
                            + PostgresText.of(rest, nameAt, end + 1, database)
                            + (table ? "" : " CASCADE"));
        }
        sql.add(PostgresText.of(rest, 0, rest.size(), database));
        alone(
                () -> {
                    try (Statement st = pg.createStatement()) {
                        for (String s : sql) {
                            st.execute(s);
                        }
                    }
                    return null;
                });
        String kind = table ? "Table" : "Schema";
        if (rest.get(0).is("CREATE")) {
            return QueryResult.status(
                    kind + " " + name + " successfully created.", QueryResult.DDL);
        }
        if (rest.get(0).is("DROP")) {
            return QueryResult.status(name + " successfully dropped.", QueryResult.DDL);
        }
        return QueryResult.status("Statement executed successfully.", QueryResult.DDL);
    }

    /** The index of the object's name: past the kind and any IF [NOT] EXISTS. */
    private static int nameIndex(List<Token> tokens) {
        int i = 1;
        while (i < tokens.size() && !tokens.get(i).is("TABLE") && !tokens.get(i).is("SCHEMA")) {
            i++;
        }
        i++;
        if (i < tokens.size() && tokens.get(i).is("IF")) {
            i += tokens.get(i + 1).is("NOT") ? 3 : 2;
        }
        return i;
    }

    /** {@code ALTER TABLE a SWAP WITH b}: the two names trade places, in one transaction. */
    private QueryResult swap(List<Token> tokens, int swapAt)
            throws SnowflakeError, SQLException, IOException {
        List<String> a = qualified(tokens, 2, swapAt);
        List<String> b = qualified(tokens, swapAt + 2, tokens.size());
        if (!a.get(0).equals(b.get(0))) {
            throw SnowflakeError.unsupported("SWAP WITH a table of another schema");
        }
        String s = SqlTokens.pg(a.get(0));
        String tmp = "_fake_swap_" + id;
        alone(
                () -> {
                    try (Statement st = pg.createStatement()) {
                        st.execute(
                                "ALTER TABLE "
                                        + s
                                        + "."
                                        + SqlTokens.pg(a.get(1))
                                        + " RENAME TO "
                                        + SqlTokens.quote(tmp));
                        st.execute(
                                "ALTER TABLE "
                                        + s
                                        + "."
                                        + SqlTokens.pg(b.get(1))
                                        + " RENAME TO "
                                        + SqlTokens.pg(a.get(1)));
                        st.execute(
                                "ALTER TABLE "
                                        + s
                                        + "."
                                        + SqlTokens.quote(tmp)
                                        + " RENAME TO "
                                        + SqlTokens.pg(b.get(1)));
                    }
                    return null;
                });
        return QueryResult.status("Statement executed successfully.", QueryResult.DDL);
    }

    /** {@code [db.][schema.]table} in {@code tokens[from, to)} as (schema, table). */
    private List<String> qualified(List<Token> tokens, int from, int to) throws SnowflakeError {
        List<String> parts = new ArrayList<>();
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            if (t.isIdentifier()) {
                parts.add(t.name());
            } else if (!t.is(".")) {
                throw SnowflakeError.compilation("unexpected '" + t.text() + "' in a table name");
            }
        }
        if (parts.isEmpty() || parts.size() > 3) {
            throw SnowflakeError.compilation("a table name is expected");
        }
        if (parts.size() == 3 && !parts.get(0).equals(database)) {
            throw SnowflakeError.notFound("Database", parts.get(0));
        }
        return parts.size() == 1
                ? List.of(schema, parts.get(0))
                : parts.subList(parts.size() - 2, parts.size());
    }

    private QueryResult alterSession(List<Token> tokens) throws SnowflakeError, SQLException {
        if (tokens.size() < 3 || !tokens.get(2).is("SET")) {
            throw SnowflakeError.unsupported(
                    "ALTER SESSION " + (tokens.size() > 2 ? tokens.get(2).text() : ""));
        }
        Iterator<Token> it = tokens.subList(3, tokens.size()).iterator();
        while (it.hasNext()) {
            String name = it.next().text().toUpperCase(Locale.ROOT);
            if (!it.hasNext() || !it.next().is("=") || !it.hasNext()) {
                throw SnowflakeError.compilation(
                        "ALTER SESSION SET " + name + " = <value> expected");
            }
            Token value = it.next();
            switch (name) {
                case "AUTOCOMMIT" -> {
                    boolean on = CopyInto.bool(value);
                    if (on && inTransaction) {
                        pg.commit();
                        endTransaction();
                    }
                    autocommit = on;
                }
                case "QUERY_TAG" -> {
                    // a label for the query history the fake does not keep
                }
                case "TIMEZONE" -> {
                    if (!value.text().equals("UTC")) {
                        throw SnowflakeError.unsupported("TIMEZONE other than UTC");
                    }
                }
                case "JDBC_QUERY_RESULT_FORMAT" -> {
                    if (!value.text().equalsIgnoreCase("JSON")) {
                        throw SnowflakeError.unsupported(
                                "JDBC_QUERY_RESULT_FORMAT = " + value.text());
                    }
                }
                default -> throw SnowflakeError.unsupported("session parameter " + name);
            }
            if (it.hasNext() && !it.next().is(",")) {
                throw SnowflakeError.compilation("',' expected between session parameters");
            }
        }
        return QueryResult.status("Statement executed successfully.", QueryResult.ALTER_SESSION);
    }

    private QueryResult use(List<Token> tokens) throws SnowflakeError, SQLException {
        if (tokens.size() < 2) {
            throw SnowflakeError.compilation("USE needs a name");
        }
        String kind = tokens.size() > 2 ? tokens.get(1).text().toUpperCase(Locale.ROOT) : "SCHEMA";
        Token name = tokens.get(tokens.size() - 1);
        switch (kind) {
            case "SCHEMA" -> {
                List<String> parts = qualified(tokens, tokens.size() > 2 ? 2 : 1, tokens.size());
                if (!Stages.schemaExists(pg, parts.get(1))) {
                    throw SnowflakeError.notFound("Schema", database + "." + parts.get(1));
                }
                useSchema(parts.get(1));
            }
            case "DATABASE" -> {
                if (!name.name().equals(database)) {
                    throw SnowflakeError.notFound("Database", name.name());
                }
            }
            case "WAREHOUSE" -> warehouse = name.name();
            case "ROLE" -> role = name.name();
            default -> throw SnowflakeError.unsupported("USE " + kind);
        }
        return QueryResult.status("Statement executed successfully.", QueryResult.USE);
    }

    private QueryResult stage(List<Token> tokens, boolean create)
            throws SnowflakeError, SQLException, IOException {
        if (inTransaction) {
            pg.commit();
            endTransaction();
        }
        boolean replace =
                tokens.size() > 2 && tokens.get(1).is("OR") && tokens.get(2).is("REPLACE");
        int i = 1;
        while (!tokens.get(i).is("STAGE")) {
            i++;
        }
        i++;
        boolean ifClause = i < tokens.size() && tokens.get(i).is("IF");
        if (ifClause) {
            i += create ? 3 : 2;
        }
        int end = i;
        while (end + 1 < tokens.size() && tokens.get(end + 1).is(".")) {
            end += 2;
        }
        if (end + 1 < tokens.size()) {
            throw SnowflakeError.unsupported((create ? "CREATE" : "DROP") + " STAGE with options");
        }
        List<String> name = qualified(tokens, i, end + 1);
        boolean exists = Stages.stageExists(pg, name.get(0), name.get(1));
        if (create && exists && !replace && !ifClause) {
            throw new SnowflakeError(
                    2002,
                    "42710",
                    "SQL compilation error:\nObject '" + name.get(1) + "' already exists.");
        }
        if (!create && !exists && !ifClause) {
            throw SnowflakeError.notFound(
                    "Stage", database + "." + name.get(0) + "." + name.get(1));
        }
        if (create && !Stages.schemaExists(pg, name.get(0))) {
            throw SnowflakeError.notFound("Schema", database + "." + name.get(0));
        }
        alone(
                () -> {
                    try (PreparedStatement st =
                            pg.prepareStatement(
                                    create
                                            ? "INSERT INTO \"_fake\".stages VALUES (?, ?) ON CONFLICT DO NOTHING"
                                            : "DELETE FROM \"_fake\".stages WHERE schema_name = ? AND stage_name = ?")) {
                        st.setString(1, name.get(0));
                        st.setString(2, name.get(1));
                        st.executeUpdate();
                    }
                    return null;
                });
        return QueryResult.status(
                create
                        ? "Stage area " + name.get(1) + " successfully created."
                        : name.get(1) + " successfully dropped.",
                QueryResult.DDL);
    }

    private static StageRef stageAt(String sql, List<Token> tokens, int i) throws SnowflakeError {
        if (i >= tokens.size()) {
            throw SnowflakeError.compilation("a stage (@...) is expected");
        }
        Token t = tokens.get(i);
        if (t.is("@")) {
            return StageRef.parse(sql, t.start());
        }
        if (t.kind() == Kind.STRING && t.text().startsWith("@")) {
            StageRef ref = StageRef.parse(t.text(), 0);
            return new StageRef(ref.kind(), ref.name(), ref.path(), t.end());
        }
        throw SnowflakeError.compilation("a stage (@...) is expected");
    }

    /** The optional {@code PATTERN = '<regex>'} after the stage; nothing else may follow. */
    private static Pattern pattern(String sql, StageRef ref) throws SnowflakeError {
        List<Token> rest = SqlTokens.of(sql.substring(ref.end()));
        rest.removeIf(t -> t.is(";"));
        if (rest.isEmpty()) {
            return null;
        }
        if (rest.size() == 3
                && rest.get(0).is("PATTERN")
                && rest.get(1).is("=")
                && rest.get(2).kind() == Kind.STRING) {
            return Pattern.compile(rest.get(2).text());
        }
        throw SnowflakeError.unsupported("option " + rest.get(0).text());
    }

    /**
     * {@code PUT file://<path> @<stage>[/path] [AUTO_COMPRESS|OVERWRITE|PARALLEL|SOURCE_COMPRESSION
     * = ...]}.
     */
    private ObjectNode put(String sql, List<Token> tokens) throws SnowflakeError, SQLException {
        int begin = sql.indexOf("file://");
        if (begin < 0) {
            throw SnowflakeError.compilation("PUT needs a file:// location");
        }
        boolean quoted = begin > 0 && sql.charAt(begin - 1) == '\'';
        int from = begin + "file://".length();
        int end = from;
        while (end < sql.length()
                && (quoted
                        ? sql.charAt(end) != '\''
                        : !Character.isWhitespace(sql.charAt(end)) && sql.charAt(end) != ';')) {
            end++;
        }
        String local = sql.substring(from, end);
        if (quoted) {
            local = local.replace("\\\\", "\\");
            end++;
        }
        int at = end;
        while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
            at++;
        }
        StageRef ref;
        if (at < sql.length() && sql.charAt(at) == '\'') {
            int close = sql.indexOf('\'', at + 1);
            if (close < 0) {
                throw SnowflakeError.compilation("unterminated stage location");
            }
            StageRef inner = StageRef.parse(sql.substring(at + 1, close), 0);
            ref = new StageRef(inner.kind(), inner.name(), inner.path(), close + 1);
        } else {
            ref = StageRef.parse(sql, at);
        }
        boolean autoCompress = true;
        boolean overwrite = false;
        String sourceCompression = "auto_detect";
        int parallel = 4;
        List<Token> opts = SqlTokens.of(sql.substring(ref.end()));
        opts.removeIf(t -> t.is(";"));
        for (int i = 0; i < opts.size(); i += 3) {
            if (i + 2 >= opts.size() || !opts.get(i + 1).is("=")) {
                throw SnowflakeError.compilation("unexpected '" + opts.get(i).text() + "' in PUT");
            }
            String name = opts.get(i).text().toUpperCase(Locale.ROOT);
            Token value = opts.get(i + 2);
            switch (name) {
                case "AUTO_COMPRESS" -> autoCompress = CopyInto.bool(value);
                case "OVERWRITE" -> overwrite = CopyInto.bool(value);
                case "PARALLEL" -> parallel = Integer.parseInt(value.text());
                case "SOURCE_COMPRESSION" ->
                        sourceCompression = value.text().toLowerCase(Locale.ROOT);
                default -> throw SnowflakeError.unsupported("PUT option " + name);
            }
        }
        ObjectNode data =
                server.stages.put(
                        local,
                        server.stages.resolve(ref, this),
                        autoCompress,
                        overwrite,
                        sourceCompression,
                        parallel);
        data.put("queryId", server.nextQueryId());
        return data;
    }

    /**
     * Cancels the statement running for {@code requestId}; answers whether there was one. A request
     * whose backing statement has not started yet is cancelled as it starts ({@link #cancelled});
     * one that starts between the two is cancelled again until it has ended (5 s at most), as a
     * cancel that reaches PostgreSQL before its query is lost.
     */
    boolean abort(String requestId) throws SQLException {
        if (!requestId.equals(runningRequestId)) {
            return false;
        }
        cancelled = requestId;
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (requestId.equals(runningRequestId) && System.nanoTime() < deadline) {
            Statement st = running;
            if (st != null) {
                st.cancel();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
        }
        return true;
    }

    void close() throws SQLException {
        Statement st = running;
        if (st != null) {
            st.cancel();
        }
        synchronized (this) {
            if (inTransaction) {
                pg.rollback();
            }
            if (st == null) {
                server.release(pg);
            } else {
                // a cancel request may still be on its way to this backend: never reuse it
                pg.close();
            }
        }
    }
}
