package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
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
        String key = table.primaryKey().get(0);
        Side src =
                new Side(
                        source,
                        Canonical.Dialect.POSTGRES,
                        quote(table.schema()) + "." + quote(table.table()),
                        quote(key),
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
        Side dst =
                new Side(
                        destination,
                        sinkDialect,
                        qualified,
                        dialect.quote(names.column(key)),
                        Canonical.rowHash(sinkDialect, sinkColumns, jsonAsStored));
        return new StreamCheck(src, dst, append, progress).run(stream, dst.count(), null);
    }

    /** Why this slice cannot compare {@code table}, exactly; null when it can. */
    static String unverifiable(TableInfo table) {
        List<String> key = table.primaryKey();
        if (key.isEmpty()) {
            return "table "
                    + quote(table.schema())
                    + "."
                    + quote(table.table())
                    + " has no primary key; verify compares tables by a single-column integer"
                    + " primary key";
        }
        if (key.size() > 1) {
            return "table "
                    + quote(table.schema())
                    + "."
                    + quote(table.table())
                    + " has a composite primary key ("
                    + String.join(", ", key)
                    + "); verify compares tables by a single-column integer primary key";
        }
        if (!table.hasIntegerKey()) {
            DataType type = table.column(key.get(0)).type();
            return "the primary key "
                    + quote(key.get(0))
                    + " of table "
                    + quote(table.schema())
                    + "."
                    + quote(table.table())
                    + " is "
                    + table.column(key.get(0)).pgType()
                    + " ("
                    + type.kind().name().toLowerCase(java.util.Locale.ROOT)
                    + "); verify compares tables by a single-column integer primary key";
        }
        return null;
    }

    private static String quote(String name) {
        return SOURCE_QUOTE
                + name.replace(SOURCE_QUOTE, SOURCE_QUOTE + SOURCE_QUOTE)
                + SOURCE_QUOTE;
    }
}
