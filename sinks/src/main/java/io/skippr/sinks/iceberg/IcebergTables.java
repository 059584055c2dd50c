package io.skippr.sinks.iceberg;

import io.skippr.core.naming.Names;
import io.skippr.core.record.Column;
import io.skippr.core.record.StreamSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A stream's Iceberg table: named {@link Names#snake} of the stream, created on first sight with
 * the stream's columns plus {@code _skippr_id} and {@code _skippr_synced_at}; a column the source
 * adds is added to the table (and an int or float column widened in place) before any data file
 * that holds it is committed. Several writers may do this at once: a lost race is retried on the
 * table as the winner left it. With write_mode merge the stream's primary key is the table's
 * identifier fields.
 */
public final class IcebergTables {
    public static final String ID = "_skippr_id";
    public static final String SYNCED_AT = "_skippr_synced_at";
    private static final int ATTEMPTS = 20;

    private final Catalog catalog;
    private final IcebergSinkSettings settings;

    public IcebergTables(Catalog catalog, IcebergSinkSettings settings) {
        this.catalog = catalog;
        this.settings = settings;
    }

    /** The table a stream lands in. */
    public static String name(String stream) {
        return Names.snake(stream);
    }

    /** Creates the namespace where it is missing. */
    public static void ensureNamespace(Catalog catalog, Namespace namespace) {
        if (catalog instanceof SupportsNamespaces namespaces
                && !namespaces.namespaceExists(namespace)) {
            try {
                namespaces.createNamespace(namespace);
            } catch (AlreadyExistsException e) {
                // created by another writer meanwhile
            }
        }
    }

    /** The stream's table, created or evolved to hold every column of {@code schema}. */
    public Table ensure(StreamSchema schema) {
        TableIdentifier id = settings.table(name(schema.stream()));
        CommitFailedException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                if (!catalog.tableExists(id)) {
                    ensureNamespace(catalog, id.namespace());
                    return catalog.createTable(
                            id,
                            newSchema(schema, settings.merge()),
                            PartitionSpec.unpartitioned(),
                            properties());
                }
                Table table = catalog.loadTable(id);
                if (evolve(table, schema)) {
                    table.refresh();
                }
                return table;
            } catch (AlreadyExistsException e) {
                // another writer created it: evolve it on the next attempt
            } catch (CommitFailedException e) {
                last = e; // another writer changed the schema first: look again
            }
        }
        throw new IcebergSinkException(
                "Could not bring table "
                        + id
                        + " in "
                        + settings.catalog().describe()
                        + " up to the columns of stream "
                        + schema.stream()
                        + " after "
                        + ATTEMPTS
                        + " attempts: "
                        + (last == null ? "" : last.getMessage()),
                last);
    }

    private Map<String, String> properties() {
        return Map.of(
                TableProperties.FORMAT_VERSION, "2",
                TableProperties.DEFAULT_FILE_FORMAT, "parquet",
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                        String.valueOf(settings.targetFileBytes()));
    }

    static Schema newSchema(StreamSchema schema) {
        return newSchema(schema, false);
    }

    /**
     * @param keyed write_mode merge: the primary key columns are required and the schema's
     *     identifier fields (the key the equality deletes name)
     */
    static Schema newSchema(StreamSchema schema, boolean keyed) {
        List<Types.NestedField> fields = new ArrayList<>();
        Set<Integer> key = new HashSet<>();
        int id = 1;
        for (Column column : schema.columns()) {
            boolean inKey = keyed && schema.primaryKey().contains(column.name());
            if (inKey) {
                key.add(id);
            }
            fields.add(
                    Types.NestedField.of(
                            id++, !inKey, column.name(), IcebergTypes.of(column.type())));
        }
        fields.add(Types.NestedField.optional(id++, ID, Types.StringType.get()));
        fields.add(Types.NestedField.optional(id, SYNCED_AT, Types.TimestampType.withZone()));
        return new Schema(fields, key);
    }

    /**
     * Makes the stream's primary key the table's identifier fields (required columns) where it is
     * not yet: a table an append run created, now loaded with write_mode merge. Its key columns
     * hold no NULL (they are a primary key in the source).
     */
    private static UpdateSchema identify(Table table, StreamSchema schema, UpdateSchema update) {
        Set<String> have = new HashSet<>(table.schema().identifierFieldNames());
        if (have.equals(new HashSet<>(schema.primaryKey()))) {
            return update;
        }
        UpdateSchema out = update == null ? table.updateSchema() : update;
        out.allowIncompatibleChanges();
        Map<String, Types.NestedField> columns = columns(table.schema());
        for (String column : schema.primaryKey()) {
            if (columns.containsKey(column) && columns.get(column).isOptional()) {
                out.requireColumn(column);
            }
        }
        return out.setIdentifierFields(schema.primaryKey());
    }

    /** Adds or widens columns; false if the table held the schema already. */
    private boolean evolve(Table table, StreamSchema schema) {
        Map<String, Types.NestedField> existing = columns(table.schema());
        UpdateSchema update = null;
        for (Column column : schema.columns()) {
            Type want = IcebergTypes.of(column.type());
            Types.NestedField have = existing.get(column.name());
            if (have == null) {
                update = update == null ? table.updateSchema() : update;
                update.addColumn(null, column.name(), want);
            } else if (IcebergTypes.holds(have.type(), want)) {
                continue;
            } else if (IcebergTypes.widens(have.type(), want)) {
                update = update == null ? table.updateSchema() : update;
                update.updateColumn(column.name(), want.asPrimitiveType());
            } else {
                throw new IcebergSinkException(
                        "Column "
                                + column.name()
                                + " of stream "
                                + schema.stream()
                                + " is "
                                + column.type()
                                + " (Iceberg "
                                + want
                                + "), but table "
                                + table.name()
                                + " holds it as "
                                + have.type()
                                + ", which Iceberg cannot change in place: rename the column"
                                + " in the source, or drop the table to load it anew");
            }
        }
        if (settings.merge()) {
            update = identify(table, schema, update);
        }
        if (update == null) {
            return false;
        }
        update.commit();
        return true;
    }

    /** A schema's top-level columns by name (names may hold dots, so not by path). */
    static Map<String, Types.NestedField> columns(Schema schema) {
        Map<String, Types.NestedField> out = new HashMap<>();
        for (Types.NestedField field : schema.columns()) {
            out.put(field.name(), field);
        }
        return out;
    }
}
