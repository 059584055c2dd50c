package io.skippr.cli.verify;

import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sources.postgres.ColumnInfo;
import io.skippr.sources.postgres.TableInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A source table and the destination table its stream loads, named by the sink's own naming ({@link
 * SqlDialect#names()}), as the pair of {@link Side}s a {@link StreamCheck} compares.
 */
final class Tables {
    private static final String SOURCE_QUOTE = "\"";

    private final Connection source;
    private final Connection destination;
    private final Canonical.Dialect sinkDialect;
    private final SqlDialect dialect;
    private final String schema;

    Tables(
            Connection source,
            Connection destination,
            Canonical.Dialect sinkDialect,
            SqlDialect dialect,
            String schema) {
        this.source = source;
        this.destination = destination;
        this.sinkDialect = sinkDialect;
        this.dialect = dialect;
        this.schema = schema;
    }

    StreamReport verify(TableInfo table, WriteMode mode, Consumer<String> progress)
            throws SQLException {
        String stream = table.stream();
        String problem = unverifiable(table);
        if (problem != null) {
            return StreamReport.notVerifiable(stream, problem);
        }
        SqlNames names = dialect.names();
        String target = names.table(stream);
        String qualified = dialect.qualified(schema, target);
        LinkedHashMap<String, String> have = dialect.columns(destination, schema, target);
        boolean jsonAsStored = sinkDialect == Canonical.Dialect.DUCKDB;
        List<Canonical.Column> sourceColumns = new ArrayList<>();
        List<Canonical.Column> sinkColumns = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (ColumnInfo c : table.columns()) {
            sourceColumns.add(new Canonical.Column(quote(c.name()), c.type()));
            String column = names.column(c.name());
            sinkColumns.add(new Canonical.Column(dialect.quote(column), c.type()));
            if (have != null && !have.containsKey(column)) {
                absent.add(dialect.quote(column));
            }
        }
        Side src =
                new Side(
                        source,
                        Canonical.Dialect.POSTGRES,
                        quote(table.schema()) + "." + quote(table.table()),
                        table.primaryKey().stream()
                                .map(k -> table.column(k))
                                .map(
                                        c ->
                                                new Side.KeyColumn(
                                                        quote(c.name()), c.castType(), c.type()))
                                .toList(),
                        Canonical.rowHash(Canonical.Dialect.POSTGRES, sourceColumns, jsonAsStored));
        boolean append = mode.of(table.streamSchema()) == WriteMode.APPEND;
        if (have == null) {
            return new StreamCheck(src, null, append, progress)
                    .nothingLoaded(stream, "destination table " + qualified + " does not exist");
        }
        if (!absent.isEmpty()) {
            return StreamReport.notVerifiable(
                    stream,
                    "destination table "
                            + qualified
                            + " has no column "
                            + String.join(", ", absent));
        }
        List<Side.KeyColumn> sinkKey = new ArrayList<>();
        for (String k : table.primaryKey()) {
            String column = names.column(k);
            sinkKey.add(
                    new Side.KeyColumn(
                            dialect.quote(column), have.get(column), table.column(k).type()));
        }
        Side dst =
                new Side(
                        destination,
                        sinkDialect,
                        qualified,
                        sinkKey,
                        Canonical.rowHash(sinkDialect, sinkColumns, jsonAsStored));
        return new StreamCheck(src, dst, append, progress).run(stream, dst.count(), null);
    }

    /** Why verify cannot compare {@code table}, exactly; null when it can. */
    static String unverifiable(TableInfo table) {
        String name = quote(table.schema()) + "." + quote(table.table());
        if (table.primaryKey().isEmpty()) {
            return "table "
                    + name
                    + " has no primary key; verify compares tables by their primary key";
        }
        for (String k : table.primaryKey()) {
            ColumnInfo c = table.column(k);
            if (!Key.orderable(c.type().kind())) {
                return "the primary key column "
                        + quote(k)
                        + " of table "
                        + name
                        + " is "
                        + c.pgType()
                        + " ("
                        + c.type().kind().name().toLowerCase(Locale.ROOT)
                        + "); verify orders keys of integer, numeric, text, uuid, date, time and"
                        + " timestamp types";
            }
        }
        return null;
    }

    private static String quote(String name) {
        return SOURCE_QUOTE
                + name.replace(SOURCE_QUOTE, SOURCE_QUOTE + SOURCE_QUOTE)
                + SOURCE_QUOTE;
    }
}
