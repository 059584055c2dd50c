package io.skippr.sinks.databricks.fake;

import io.skippr.sinks.databricks.fake.PostgresText.Type;
import io.skippr.sinks.databricks.fake.SqlTokens.Token;
import io.skippr.sinks.databricks.fake.UnityCatalog.Defaults;
import io.skippr.sinks.databricks.fake.UnityCatalog.Table;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code CREATE}, {@code DROP} and {@code ALTER} of catalogs, schemas, volumes and Delta tables, in
 * the statement's transaction: {@code CREATE CATALOG|SCHEMA|DATABASE|VOLUME [IF NOT EXISTS]},
 * {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] t (c TYPE [NOT NULL], ...) [USING DELTA]},
 * {@code DROP CATALOG|SCHEMA|DATABASE|VOLUME|TABLE [IF EXISTS] ... [CASCADE|RESTRICT]} and {@code
 * ALTER TABLE t ADD COLUMN[S] ...}. Anything else (options, locations, comments, constraints,
 * external volumes, other {@code ALTER}s) is refused. {@code CREATE [OR REPLACE] TABLE t AS
 * <query>} runs the query through PostgreSQL.
 */
final class Ddl {
    private final Connection pg;
    private final UnityCatalog catalog;
    private final Defaults defaults;

    Ddl(Connection pg, UnityCatalog catalog, Defaults defaults) {
        this.pg = pg;
        this.catalog = catalog;
        this.defaults = defaults;
    }

    /** Reads a dotted name at {@code i} into {@code parts}; answers the index after it. */
    static int name(List<Token> tokens, int i, List<String> parts) throws DatabricksError {
        while (true) {
            if (i >= tokens.size() || !tokens.get(i).isIdentifier()) {
                throw DatabricksError.syntax(
                        i >= tokens.size() ? "end of input" : "'" + tokens.get(i).text() + "'");
            }
            parts.add(tokens.get(i).text());
            i++;
            if (i + 1 < tokens.size() && tokens.get(i).is(".")) {
                i++;
            } else {
                return i;
            }
        }
    }

    Result run(List<Token> tokens) throws DatabricksError, SQLException, IOException {
        String verb = tokens.get(0).text().toUpperCase(Locale.ROOT);
        int i = 1;
        boolean replace = false;
        if (verb.equals("CREATE") && at(tokens, i).is("OR") && at(tokens, i + 1).is("REPLACE")) {
            replace = true;
            i += 2;
        }
        String object = at(tokens, i++).text().toUpperCase(Locale.ROOT);
        if (verb.equals("ALTER")) {
            if (!object.equals("TABLE")) {
                throw DatabricksError.unsupported("ALTER " + object);
            }
            return alterTable(tokens, i);
        }
        boolean create = verb.equals("CREATE");
        boolean ifClause = false;
        if (at(tokens, i).is("IF")) {
            if (create && !(at(tokens, i + 1).is("NOT") && at(tokens, i + 2).is("EXISTS"))) {
                throw DatabricksError.syntax("'IF'");
            }
            if (!create && !at(tokens, i + 1).is("EXISTS")) {
                throw DatabricksError.syntax("'IF'");
            }
            ifClause = true;
            i += create ? 3 : 2;
        }
        List<String> name = new ArrayList<>();
        i = name(tokens, i, name);
        boolean cascade = false;
        if (!create
                && i < tokens.size()
                && (tokens.get(i).is("CASCADE") || tokens.get(i).is("RESTRICT"))) {
            cascade = tokens.get(i).is("CASCADE");
            i++;
        }
        if (replace && !object.equals("TABLE")) {
            throw DatabricksError.unsupported("CREATE OR REPLACE " + object);
        }
        if (!object.equals("TABLE") && i < tokens.size()) {
            throw DatabricksError.unsupported(
                    verb + " " + object + " with " + tokens.get(i).text() + " (options)");
        }
        switch (object) {
            case "CATALOG" -> {
                one(name, object);
                String c = UnityCatalog.fold(name.get(0));
                if (create) {
                    catalog.createCatalog(pg, c, ifClause);
                } else {
                    catalog.dropCatalog(pg, c, ifClause, cascade);
                }
            }
            case "SCHEMA", "DATABASE" -> {
                if (name.size() > 2) {
                    throw DatabricksError.syntax("'" + String.join(".", name) + "'");
                }
                String c = name.size() == 2 ? UnityCatalog.fold(name.get(0)) : defaults.catalog();
                String s = UnityCatalog.fold(name.get(name.size() - 1));
                if (create) {
                    catalog.createSchema(pg, c, s, ifClause);
                } else {
                    catalog.dropSchema(pg, c, s, ifClause, cascade);
                }
            }
            case "VOLUME" -> {
                if (name.size() > 3) {
                    throw DatabricksError.syntax("'" + String.join(".", name) + "'");
                }
                String v = UnityCatalog.fold(name.get(name.size() - 1));
                String s =
                        name.size() >= 2
                                ? UnityCatalog.fold(name.get(name.size() - 2))
                                : defaults.schema();
                String c = name.size() == 3 ? UnityCatalog.fold(name.get(0)) : defaults.catalog();
                if (create) {
                    catalog.createVolume(pg, c, s, v, ifClause);
                } else {
                    catalog.dropVolume(pg, c, s, v, ifClause);
                }
            }
            case "TABLE" -> {
                Table table = catalog.table(pg, name, defaults);
                boolean exists = UnityCatalog.tableExists(pg, table);
                if (create) {
                    if (exists && !replace) {
                        if (ifClause) {
                            return Result.empty();
                        }
                        throw DatabricksError.tableExists(table.display());
                    }
                    if (i < tokens.size() && tokens.get(i).is("AS")) {
                        return createAsSelect(table, exists, tokens.subList(i + 1, tokens.size()));
                    }
                    String columns = columns(tokens, i);
                    try (Statement st = pg.createStatement()) {
                        if (exists) {
                            st.execute("DROP TABLE " + table.pg());
                        }
                        st.execute("CREATE TABLE " + table.pg() + " (" + columns + ")");
                    }
                } else {
                    if (i < tokens.size()) {
                        throw DatabricksError.unsupported("DROP TABLE ... " + tokens.get(i).text());
                    }
                    if (!exists) {
                        if (ifClause) {
                            return Result.empty();
                        }
                        throw DatabricksError.tableNotFound(table.display());
                    }
                    try (Statement st = pg.createStatement()) {
                        st.execute("DROP TABLE " + table.pg());
                    }
                }
            }
            default -> throw DatabricksError.unsupported(verb + " " + object);
        }
        return Result.empty();
    }

    /**
     * {@code CREATE [OR REPLACE] TABLE t AS <query>}: the table, dropped first when it exists (in
     * Delta the replacement is one new version of the table; here both happen in the statement's
     * transaction, so no reader sees the table missing). The query's columns and types become the
     * table's. A query with parameter markers is refused.
     */
    private Result createAsSelect(Table table, boolean exists, List<Token> query)
            throws DatabricksError, SQLException {
        if (query.isEmpty()
                || !(query.get(0).is("SELECT")
                        || query.get(0).is("WITH")
                        || query.get(0).is("("))) {
            throw DatabricksError.syntax(
                    query.isEmpty() ? "end of input" : "'" + query.get(0).text() + "'");
        }
        PostgresText text = new PostgresText(pg, catalog, defaults, java.util.Map.of());
        String sql = text.of(query);
        if (!text.binds.isEmpty()) {
            throw DatabricksError.unsupported("parameter markers in CREATE TABLE ... AS SELECT");
        }
        try (Statement st = pg.createStatement()) {
            if (exists) {
                st.execute("DROP TABLE " + table.pg());
            }
            st.execute("CREATE TABLE " + table.pg() + " AS " + sql);
        }
        return Result.empty();
    }

    private static Token at(List<Token> tokens, int i) throws DatabricksError {
        if (i >= tokens.size()) {
            throw DatabricksError.syntax("end of input");
        }
        return tokens.get(i);
    }

    private static void one(List<String> name, String object) throws DatabricksError {
        if (name.size() != 1) {
            throw DatabricksError.syntax(
                    "'" + String.join(".", name) + "' (a " + object + " name)");
        }
    }

    /** {@code (c TYPE [NOT NULL], ...) [USING DELTA]} as PostgreSQL column definitions. */
    private static String columns(List<Token> tokens, int i) throws DatabricksError {
        if (i >= tokens.size()) {
            throw DatabricksError.unsupported("CREATE TABLE without columns");
        }
        if (!tokens.get(i).is("(")) {
            throw DatabricksError.unsupported("CREATE TABLE ... " + tokens.get(i).text());
        }
        List<String> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        i++;
        while (true) {
            Column c = column(tokens, i, true);
            if (!seen.add(c.name())) {
                throw new DatabricksError(
                        "COLUMN_ALREADY_EXISTS",
                        "42711",
                        "The column "
                                + DatabricksError.display(c.name())
                                + " already exists. Choose another name or rename the existing"
                                + " column.");
            }
            out.add(c.sql());
            i = c.next();
            if (at(tokens, i).is(",")) {
                i++;
            } else if (at(tokens, i).is(")")) {
                i++;
                break;
            } else {
                throw DatabricksError.unsupported(
                        "a column option "
                                + tokens.get(i).text()
                                + " (only NOT NULL is implemented)");
            }
        }
        if (i < tokens.size()) {
            if (i + 2 == tokens.size()
                    && tokens.get(i).is("USING")
                    && tokens.get(i + 1).is("DELTA")) {
                return String.join(", ", out);
            }
            throw DatabricksError.unsupported("CREATE TABLE ... " + tokens.get(i).text());
        }
        return String.join(", ", out);
    }

    private record Column(String name, String sql, int next) {}

    private static Column column(List<Token> tokens, int i, boolean notNullAllowed)
            throws DatabricksError {
        Token n = at(tokens, i);
        if (!n.isIdentifier()) {
            throw DatabricksError.syntax("'" + n.text() + "'");
        }
        String name = UnityCatalog.fold(n.text());
        UnityCatalog.checkLength(name);
        Type type = PostgresText.type(tokens, i + 1, tokens.size());
        int next = type.next();
        String sql = SqlTokens.quote(UnityCatalog.standIn(name)) + " " + type.pg();
        if (next + 1 < tokens.size()
                && tokens.get(next).is("NOT")
                && tokens.get(next + 1).is("NULL")) {
            if (!notNullAllowed) {
                throw DatabricksError.unsupported("ADD COLUMN ... NOT NULL");
            }
            sql += " NOT NULL";
            next += 2;
        }
        return new Column(name, sql, next);
    }

    /** {@code ALTER TABLE t ADD COLUMN[S] [(] c TYPE, ... [)]}. */
    private Result alterTable(List<Token> tokens, int i) throws DatabricksError, SQLException {
        List<String> name = new ArrayList<>();
        i = name(tokens, i, name);
        Table table = catalog.table(pg, name, defaults);
        if (!UnityCatalog.tableExists(pg, table)) {
            throw DatabricksError.tableNotFound(table.display());
        }
        if (!at(tokens, i).is("ADD")
                || !(at(tokens, i + 1).is("COLUMN") || at(tokens, i + 1).is("COLUMNS"))) {
            throw DatabricksError.unsupported(
                    "ALTER TABLE ... "
                            + at(tokens, i).text()
                            + " (only ADD COLUMNS is implemented)");
        }
        i += 2;
        boolean parenthesized = at(tokens, i).is("(");
        if (parenthesized) {
            i++;
        }
        List<String> adds = new ArrayList<>();
        while (true) {
            Column c = column(tokens, i, false);
            adds.add("ADD COLUMN " + c.sql());
            i = c.next();
            if (i < tokens.size() && tokens.get(i).is(",")) {
                i++;
                continue;
            }
            break;
        }
        if (parenthesized) {
            if (!at(tokens, i).is(")")) {
                throw DatabricksError.unsupported("a column option " + tokens.get(i).text());
            }
            i++;
        }
        if (i < tokens.size()) {
            throw DatabricksError.unsupported("ALTER TABLE ... " + tokens.get(i).text());
        }
        try (Statement st = pg.createStatement()) {
            st.execute("ALTER TABLE " + table.pg() + " " + String.join(", ", adds));
        }
        return Result.empty();
    }
}
