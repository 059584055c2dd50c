package io.skippr.cli.verify;

import io.skippr.cli.UsageException;
import io.skippr.job.query.LakeQuery;
import io.skippr.sinks.iceberg.IcebergCatalogFactory;
import io.skippr.sinks.iceberg.IcebergTables;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * An Iceberg-family data sink's tables (SkipprLake, Athena Iceberg), each read at its current
 * snapshot by Iceberg's own generic reader, which applies the snapshot's equality and position
 * deletes (a merge's), and streamed through DuckDB's appender into a table of an embedded in-memory
 * DuckDB typed from the Iceberg schema; verify then compares it as a DuckDB destination. Rows are
 * never held in the Java heap: DuckDB holds them, and beyond its memory limit spills them to a
 * temporary folder removed at {@link #close}.
 */
final class IcebergDestination extends EmbeddedDuckDbDestination implements AutoCloseable {
    private final IcebergCatalogFactory factory;
    private final Catalog catalog;
    private final Namespace namespace;
    private final SpillFolder spill;
    private final Set<String> loaded = new HashSet<>();

    /**
     * @param duckDb an in-memory DuckDB connection, in auto-commit, the tables are filled in
     */
    IcebergDestination(Connection duckDb, IcebergCatalogFactory factory, String namespace)
            throws SQLException {
        super(duckDb);
        this.factory = factory;
        this.namespace = Namespace.of(namespace);
        this.catalog = reach(factory, factory::open);
        this.spill = new SpillFolder(duckDb, "skippr-verify-lake-");
        try (Statement s = duckDb.createStatement()) {
            // keys print alike on both sides: a timestamptz bound cut on one is read on the other
            s.execute("SET TIME ZONE 'UTC'");
        }
    }

    /** The Iceberg table, as {@code namespace.table}. */
    @Override
    public String table(String stream) {
        return identifier(stream).toString();
    }

    @Override
    public String readTable(String stream) {
        return quote(IcebergTables.name(stream));
    }

    /**
     * The table's columns, its current snapshot loaded into DuckDB first; null when the catalog has
     * no such table.
     */
    @Override
    public Map<String, String> columns(String stream) throws SQLException {
        TableIdentifier id = identifier(stream);
        String name = IcebergTables.name(stream);
        if (!loaded.contains(name)) {
            if (!reach(factory, () -> catalog.tableExists(id))) {
                return null;
            }
            load(catalog.loadTable(id), name);
            loaded.add(name);
        }
        return describe(name);
    }

    /** Creates {@code name} in DuckDB with the table's columns and appends its current rows. */
    private void load(Table table, String name) throws SQLException {
        List<Types.NestedField> fields = table.schema().columns();
        List<String> columns = new ArrayList<>();
        for (Types.NestedField field : fields) {
            columns.add(quote(field.name()) + " " + LakeQuery.duckDbType(field.type()));
        }
        try (Statement s = duckDb.createStatement()) {
            s.execute("CREATE TABLE " + quote(name) + " (" + String.join(", ", columns) + ")");
        }
        Type[] types = fields.stream().map(Types.NestedField::type).toArray(Type[]::new);
        try (DuckDBAppender appender =
                        duckDb.unwrap(DuckDBConnection.class).createAppender("main", name);
                CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record record : records) {
                appender.beginRow();
                for (int i = 0; i < types.length; i++) {
                    append(appender, types[i], record.get(i));
                }
                appender.endRow();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Iceberg table " + table.name(), e);
        }
    }

    /** One value of an Iceberg column of {@code type}, as its {@link LakeQuery#duckDbType}. */
    private static void append(DuckDBAppender a, Type type, Object v) throws SQLException {
        if (v == null) {
            a.appendNull();
            return;
        }
        switch (type.typeId()) {
            case BOOLEAN -> a.append((boolean) (Boolean) v);
            case INTEGER -> a.append((int) (Integer) v);
            case LONG -> a.append((long) (Long) v);
            case FLOAT -> a.append((float) (Float) v);
            case DOUBLE -> a.append((double) (Double) v);
            case DECIMAL -> a.append((BigDecimal) v);
            case DATE -> a.append((LocalDate) v);
            case TIME -> a.append((LocalTime) v);
            case TIMESTAMP ->
                    a.appendEpochMicros(
                            micros(
                                    v instanceof OffsetDateTime t
                                            ? t.toInstant()
                                            : ((LocalDateTime) v).toInstant(ZoneOffset.UTC)));
            case UUID -> a.append((UUID) v);
            case BINARY, FIXED -> a.append(bytes(v));
            default -> a.append(v.toString());
        }
    }

    private static byte[] bytes(Object v) {
        if (v instanceof byte[] b) {
            return b;
        }
        ByteBuffer buffer = ((ByteBuffer) v).duplicate();
        byte[] b = new byte[buffer.remaining()];
        buffer.get(b);
        return b;
    }

    /** Microseconds since the epoch. */
    private static long micros(Instant t) {
        return Math.addExact(
                Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    /**
     * {@code call} to the catalog; a catalog that cannot be reached is a configuration error (exit
     * 2) naming it and the cause's own words (never the client's message, which may spell out a
     * connection URL with its credentials).
     */
    private static <T> T reach(IcebergCatalogFactory factory, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            // the database's own words where there are some, else the root cause's
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof SQLException)) {
                cause = cause.getCause();
            }
            throw new UsageException(
                    "cannot read the data sink: "
                            + factory.describe()
                            + " cannot be reached: "
                            + cause.getClass().getSimpleName()
                            + ": "
                            + cause.getMessage());
        }
    }

    private TableIdentifier identifier(String stream) {
        return TableIdentifier.of(namespace, IcebergTables.name(stream));
    }

    /** Closes the catalog and removes the spill folder. */
    @Override
    public void close() {
        try {
            if (catalog instanceof Closeable closeable) {
                closeable.close();
            }
        } catch (IOException e) {
            // nothing was written through it
        } finally {
            spill.close();
        }
    }
}
