package io.skippr.sinks.databricks.fake;

import io.skippr.sinks.databricks.fake.PostgresText.Parameter;
import io.skippr.sinks.databricks.fake.SqlTokens.Kind;
import io.skippr.sinks.databricks.fake.SqlTokens.Token;
import io.skippr.sinks.databricks.fake.UnityCatalog.Defaults;
import io.skippr.sinks.databricks.fake.UnityCatalog.Table;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code MERGE INTO target [[AS] t] USING source [[AS] s] ON ... WHEN ...}, run by PostgreSQL's
 * MERGE after Databricks' shorthands are written out: {@code UPDATE SET *} sets every target column
 * from the source column of the same name, {@code INSERT *} inserts every target column from it,
 * {@code WHEN NOT MATCHED BY TARGET} is {@code WHEN NOT MATCHED}. {@code WHEN NOT MATCHED BY
 * SOURCE} is refused. The answer counts the rows updated, deleted and inserted as Databricks does:
 * the statement is alone in its transaction, so the rows it wrote are those whose {@code xmin} is
 * the transaction's id, and the row count before and after tells inserts from updates.
 */
final class MergeInto {
    private final Connection pg;
    private final UnityCatalog catalog;
    private final Defaults defaults;
    private final Map<String, Parameter> parameters;

    MergeInto(
            Connection pg,
            UnityCatalog catalog,
            Defaults defaults,
            Map<String, Parameter> parameters) {
        this.pg = pg;
        this.catalog = catalog;
        this.defaults = defaults;
        this.parameters = parameters;
    }

    Result run(List<Token> tokens) throws DatabricksError, SQLException {
        if (tokens.size() < 2 || !tokens.get(1).is("INTO")) {
            throw DatabricksError.syntax("'MERGE'");
        }
        List<String> name = new ArrayList<>();
        int i = Ddl.name(tokens, 2, name);
        Table target = catalog.table(pg, name, defaults);
        if (!UnityCatalog.tableExists(pg, target)) {
            throw DatabricksError.tableNotFound(target.display());
        }
        while (i < tokens.size() && !tokens.get(i).is("USING")) {
            i++;
        }
        if (i == tokens.size()) {
            throw DatabricksError.syntax("end of input");
        }
        i++;
        String source;
        if (i < tokens.size() && tokens.get(i).is("(")) {
            int depth = 0;
            for (; i < tokens.size(); i++) {
                if (tokens.get(i).is("(")) {
                    depth++;
                } else if (tokens.get(i).is(")") && --depth == 0) {
                    break;
                }
            }
            i++;
            source = null;
        } else {
            List<String> sourceName = new ArrayList<>();
            i = Ddl.name(tokens, i, sourceName);
            source = sourceName.get(sourceName.size() - 1);
        }
        if (i < tokens.size() && tokens.get(i).is("AS")) {
            i++;
        }
        if (i < tokens.size() && tokens.get(i).isIdentifier() && !tokens.get(i).is("ON")) {
            source = tokens.get(i).text();
        }
        if (source == null) {
            throw DatabricksError.syntax("'ON' (a MERGE source query needs an alias)");
        }
        List<String> columns = columns(target);
        List<Token> expanded = expand(tokens, columns, source);
        PostgresText text = new PostgresText(pg, catalog, defaults, parameters);
        String sql = text.of(SqlStatement.withoutSetQualifiers(expanded));
        long before = SqlStatement.count(pg, target, "");
        long total;
        try (PreparedStatement st = pg.prepareStatement(sql)) {
            SqlStatement.bind(st, text.binds);
            total = st.executeLargeUpdate();
        }
        long touched =
                SqlStatement.count(
                        pg,
                        target,
                        "WHERE xmin::text::bigint = pg_current_xact_id()::text::bigint % 4294967296");
        long after = SqlStatement.count(pg, target, "");
        long deleted = total - touched;
        long inserted = after - before + deleted;
        long updated = touched - inserted;
        return Result.counts(
                SqlStatement.mergeCounts(), List.of(total, updated, deleted, inserted));
    }

    private List<String> columns(Table table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT column_name FROM information_schema.columns"
                                + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            st.setString(1, table.pgSchema());
            st.setString(2, UnityCatalog.standIn(table.name()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        }
        return columns;
    }

    private static List<Token> expand(List<Token> tokens, List<String> columns, String source)
            throws DatabricksError {
        List<Token> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            Token after = i + 2 < tokens.size() ? tokens.get(i + 2) : null;
            if (t.is("BY")
                    && next != null
                    && next.is("SOURCE")
                    && i > 1
                    && tokens.get(i - 1).is("MATCHED")) {
                throw DatabricksError.unsupported("WHEN NOT MATCHED BY SOURCE");
            }
            if (t.is("BY")
                    && next != null
                    && next.is("TARGET")
                    && i > 1
                    && tokens.get(i - 1).is("MATCHED")) {
                i++;
                continue;
            }
            if (t.is("UPDATE")
                    && next != null
                    && next.is("SET")
                    && after != null
                    && after.is("*")) {
                out.add(t);
                out.add(next);
                for (int c = 0; c < columns.size(); c++) {
                    if (c > 0) {
                        out.add(symbol(","));
                    }
                    out.add(quoted(columns.get(c)));
                    out.add(symbol("="));
                    out.add(quoted(source));
                    out.add(symbol("."));
                    out.add(quoted(columns.get(c)));
                }
                i += 2;
                continue;
            }
            if (t.is("INSERT") && next != null && next.is("*")) {
                out.add(t);
                out.add(symbol("("));
                for (int c = 0; c < columns.size(); c++) {
                    if (c > 0) {
                        out.add(symbol(","));
                    }
                    out.add(quoted(columns.get(c)));
                }
                out.add(symbol(")"));
                out.add(new Token(Kind.WORD, "VALUES", -1, -1));
                out.add(symbol("("));
                for (int c = 0; c < columns.size(); c++) {
                    if (c > 0) {
                        out.add(symbol(","));
                    }
                    out.add(quoted(source));
                    out.add(symbol("."));
                    out.add(quoted(columns.get(c)));
                }
                out.add(symbol(")"));
                i += 1;
                continue;
            }
            out.add(t);
        }
        return out;
    }

    private static Token symbol(String s) {
        return new Token(Kind.SYMBOL, s, -1, -1);
    }

    private static Token quoted(String name) {
        return new Token(Kind.QUOTED, name, -1, -1);
    }
}
