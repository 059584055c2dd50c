package io.skippr.sinks.databricks.fake;

import io.skippr.sinks.databricks.fake.PostgresText.Parameter;
import io.skippr.sinks.databricks.fake.SqlTokens.Kind;
import io.skippr.sinks.databricks.fake.SqlTokens.Token;
import io.skippr.sinks.databricks.fake.UnityCatalog.Defaults;
import io.skippr.sinks.databricks.fake.UnityCatalog.Table;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One Databricks SQL statement, run in a transaction of its own on a connection of its own: it
 * commits when it succeeds and leaves nothing behind when it fails, and no statement can see
 * another's uncommitted work. Databricks has no multi-statement transactions, so {@code BEGIN},
 * {@code COMMIT} and {@code ROLLBACK} are refused. What each statement does is in this package's
 * README.
 */
final class SqlStatement {
    private static final List<String> MERGE_COUNTS =
            List.of(
                    "num_affected_rows",
                    "num_updated_rows",
                    "num_deleted_rows",
                    "num_inserted_rows");

    private final Connection pg;
    private final UnityCatalog catalog;
    private final Defaults defaults;
    private final Map<String, Parameter> parameters;
    private final long rowLimit;
    private final BooleanSupplier cancelled;

    SqlStatement(
            Connection pg,
            UnityCatalog catalog,
            Defaults defaults,
            Map<String, Parameter> parameters,
            long rowLimit,
            BooleanSupplier cancelled) {
        this.pg = pg;
        this.catalog = catalog;
        this.defaults = defaults;
        this.parameters = parameters;
        this.rowLimit = rowLimit;
        this.cancelled = cancelled;
    }

    /**
     * Runs {@code sql} and commits, or rolls back and throws. A statement cancelled before it
     * commits is rolled back and fails with PostgreSQL's {@code 57014}, whatever it was doing.
     */
    Result run(String sql) throws DatabricksError, SQLException, IOException {
        List<Token> tokens = new ArrayList<>(SqlTokens.of(sql));
        while (!tokens.isEmpty() && tokens.get(tokens.size() - 1).is(";")) {
            tokens.remove(tokens.size() - 1);
        }
        if (tokens.isEmpty()) {
            throw new DatabricksError(
                    "PARSE_EMPTY_STATEMENT", "42617", "Syntax error, unexpected empty statement.");
        }
        if (tokens.stream().anyMatch(t -> t.is(";"))) {
            throw DatabricksError.unsupported("more than one statement in a request");
        }
        pg.setAutoCommit(false);
        try {
            try (Statement st = pg.createStatement()) {
                st.execute("SET TimeZone TO 'UTC'");
            }
            Result result = dispatch(tokens);
            if (cancelled.getAsBoolean()) {
                throw new SQLException("canceling statement due to user request", "57014");
            }
            pg.commit();
            return result;
        } catch (DatabricksError | SQLException | IOException | RuntimeException e) {
            pg.rollback();
            throw e;
        }
    }

    private Result dispatch(List<Token> tokens) throws DatabricksError, SQLException, IOException {
        Token first = tokens.get(0);
        String word =
                first.kind() == Kind.WORD ? first.text().toUpperCase(Locale.ROOT) : first.text();
        return switch (word) {
            case "SELECT", "WITH", "VALUES" -> query(tokens);
            case "INSERT" -> {
                if (tokens.size() > 1 && !tokens.get(1).is("INTO")) {
                    throw DatabricksError.unsupported("INSERT " + tokens.get(1).text());
                }
                // between the table and its rows: BY NAME, REPLACE WHERE
                for (int i = 2;
                        i + 1 < tokens.size()
                                && !tokens.get(i).is("SELECT")
                                && !tokens.get(i).is("VALUES")
                                && !tokens.get(i).is("WITH")
                                && !tokens.get(i).is("(");
                        i++) {
                    if ((tokens.get(i).is("BY") && tokens.get(i + 1).is("NAME"))
                            || (tokens.get(i).is("REPLACE") && tokens.get(i + 1).is("WHERE"))) {
                        throw DatabricksError.unsupported(
                                "INSERT INTO ... "
                                        + tokens.get(i).text()
                                        + " "
                                        + tokens.get(i + 1).text());
                    }
                }
                long n = update(tokens);
                yield Result.counts(
                        List.of("num_affected_rows", "num_inserted_rows"), List.of(n, n));
            }
            case "UPDATE", "DELETE" -> {
                long n = update(word.equals("UPDATE") ? withoutSetQualifiers(tokens) : tokens);
                yield Result.counts(List.of("num_affected_rows"), List.of(n));
            }
            case "TRUNCATE" -> {
                update(tokens);
                yield Result.empty();
            }
            case "MERGE" -> new MergeInto(pg, catalog, defaults, parameters).run(tokens);
            case "COPY" -> {
                if (tokens.size() < 2 || !tokens.get(1).is("INTO")) {
                    throw DatabricksError.syntax("'COPY'");
                }
                yield new CopyInto(pg, catalog, defaults, tokens).run();
            }
            case "CREATE", "DROP", "ALTER" -> new Ddl(pg, catalog, defaults).run(tokens);
            case "BEGIN", "START", "COMMIT", "ROLLBACK", "END" ->
                    throw DatabricksError.unsupported(
                            word
                                    + " (every statement of the Statement Execution API commits alone)");
            case "USE" ->
                    throw DatabricksError.unsupported(
                            "USE (each request names its catalog and schema)");
            default -> throw DatabricksError.unsupported(word);
        };
    }

    private Result query(List<Token> tokens) throws DatabricksError, SQLException {
        PostgresText text = new PostgresText(pg, catalog, defaults, parameters);
        String sql = text.of(tokens);
        try (PreparedStatement st = pg.prepareStatement(sql)) {
            bind(st, text.binds);
            try (ResultSet rs = st.executeQuery()) {
                return Result.of(rs, rowLimit);
            }
        }
    }

    private long update(List<Token> tokens) throws DatabricksError, SQLException {
        PostgresText text = new PostgresText(pg, catalog, defaults, parameters);
        String sql = text.of(tokens);
        try (PreparedStatement st = pg.prepareStatement(sql)) {
            bind(st, text.binds);
            return st.executeLargeUpdate();
        }
    }

    static void bind(PreparedStatement st, List<String> binds) throws SQLException {
        for (int i = 0; i < binds.size(); i++) {
            st.setString(i + 1, binds.get(i));
        }
    }

    /**
     * {@code SET t.a = ...} as {@code SET a = ...}: Databricks takes a qualified target column,
     * PostgreSQL does not.
     */
    static List<Token> withoutSetQualifiers(List<Token> tokens) {
        List<Token> out = new ArrayList<>(tokens);
        boolean inSet = false;
        int depth = 0;
        for (int i = 0; i < out.size(); i++) {
            Token t = out.get(i);
            if (t.is("(")) {
                depth++;
            } else if (t.is(")")) {
                depth--;
            }
            if (depth == 0 && t.is("SET")) {
                inSet = true;
            } else if (depth == 0 && (t.is("WHERE") || t.is("WHEN") || t.is("FROM"))) {
                inSet = false;
            }
            boolean assignmentStart = depth == 0 && (t.is("SET") || t.is(","));
            if (inSet
                    && assignmentStart
                    && i + 4 < out.size()
                    && out.get(i + 1).isIdentifier()
                    && out.get(i + 2).is(".")
                    && out.get(i + 3).isIdentifier()
                    && out.get(i + 4).is("=")) {
                out.remove(i + 1);
                out.remove(i + 1);
            }
        }
        return out;
    }

    /** Rows of the table now, for counting a MERGE's actions. */
    static long count(Connection pg, Table table, String where) throws SQLException {
        try (Statement st = pg.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM " + table.pg() + " " + where)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static List<String> mergeCounts() {
        return MERGE_COUNTS;
    }
}
