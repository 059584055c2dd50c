package io.skippr.job.query;

import io.skippr.sinks.iceberg.IcebergCatalogFactory;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * SQL over the Iceberg tables of a namespace (a SkipprLake): an in-memory DuckDB with one view per
 * table over the Parquet data files of its current snapshot (DuckDB's own iceberg extension cannot
 * be installed offline). Files of a local warehouse are read where they are; files in S3 are
 * downloaded through the table's FileIO into a scratch folder first, removed afterwards.
 */
public final class LakeQuery {
    private LakeQuery() {}

    /** The tables of the namespace; empty if it does not exist yet. */
    public static List<String> tables(IcebergCatalogFactory factory, String namespace) {
        Catalog catalog = factory.open();
        try {
            Namespace ns = Namespace.of(namespace);
            if (catalog instanceof SupportsNamespaces n && !n.namespaceExists(ns)) {
                return List.of();
            }
            return catalog.listTables(ns).stream().map(TableIdentifier::name).sorted().toList();
        } finally {
            close(catalog);
        }
    }

    public static WalQuery.Result run(IcebergCatalogFactory factory, String namespace, String sql)
            throws SQLException {
        Path scratch;
        try {
            scratch = Files.createTempDirectory("skippr-lake-query-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Catalog catalog = factory.open();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = db.createStatement()) {
            for (TableIdentifier id : catalog.listTables(Namespace.of(namespace))) {
                st.execute(view(catalog.loadTable(id), id.name(), scratch));
            }
            return WalQuery.execute(st, sql);
        } finally {
            close(catalog);
            delete(scratch);
        }
    }

    private static String view(Table table, String name, Path scratch) {
        List<String> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                files.add(local(table, task.file().location(), scratch));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (files.isEmpty()) {
            List<String> columns = new ArrayList<>();
            for (Types.NestedField field : table.schema().columns()) {
                columns.add(
                        "CAST(NULL AS "
                                + duckDbType(field.type())
                                + ") AS "
                                + WalQuery.identifier(field.name()));
            }
            return "CREATE VIEW "
                    + WalQuery.identifier(name)
                    + " AS SELECT "
                    + String.join(", ", columns)
                    + " WHERE false";
        }
        return "CREATE VIEW "
                + WalQuery.identifier(name)
                + " AS SELECT * FROM read_parquet("
                + files.stream().map(WalQuery::literal).collect(Collectors.joining(", ", "[", "]"))
                + ", union_by_name = true)";
    }

    /** A data file as a local path: itself in a local warehouse, else a downloaded copy. */
    private static String local(Table table, String location, Path scratch) {
        if (location.startsWith("/")) {
            return location;
        }
        if (location.startsWith("file:")) {
            return Path.of(java.net.URI.create(location)).toString();
        }
        Path copy =
                scratch.resolve(
                        table.name().replaceAll("[^A-Za-z0-9_.-]", "_")
                                + "-"
                                + location.substring(location.lastIndexOf('/') + 1));
        try (InputStream in = table.io().newInputFile(location).newStream()) {
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot download " + location, e);
        }
        return copy.toString();
    }

    /** The DuckDB type an Iceberg column of {@code type} is read as. */
    public static String duckDbType(Type type) {
        return switch (type.typeId()) {
            case BOOLEAN -> "BOOLEAN";
            case INTEGER -> "INTEGER";
            case LONG -> "BIGINT";
            case FLOAT -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case DECIMAL ->
                    "DECIMAL("
                            + ((Types.DecimalType) type).precision()
                            + ","
                            + ((Types.DecimalType) type).scale()
                            + ")";
            case DATE -> "DATE";
            case TIME -> "TIME";
            case TIMESTAMP ->
                    ((Types.TimestampType) type).shouldAdjustToUTC() ? "TIMESTAMPTZ" : "TIMESTAMP";
            case UUID -> "UUID";
            case BINARY, FIXED -> "BLOB";
            default -> "VARCHAR";
        };
    }

    private static void close(Catalog catalog) {
        if (catalog instanceof Closeable closeable) {
            try {
                closeable.close();
            } catch (IOException ignored) {
                // the query is answered; nothing is left open that matters
            }
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // a temp folder left behind is harmless
        }
    }
}
