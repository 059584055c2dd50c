package io.skippr.sinks.glue;

import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.files.JsonText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.glue.model.Column;

/**
 * A stream's Glue columns, and what changes when its schema grows. Column names are the Parquet
 * files' column names in lower case (Glue and Athena fold names to lower case and Athena matches
 * Parquet columns by name), followed by {@code _skippr_id} and {@code _skippr_synced_at}.
 */
final class GlueColumns {
    private GlueColumns() {}

    /** The columns a table needs to read the files of {@code schema}, in the files' order. */
    static List<Column> of(StreamSchema schema) {
        Map<String, String> sources = new LinkedHashMap<>();
        List<Column> columns = new ArrayList<>();
        for (io.skippr.core.record.Column column : schema.columns()) {
            String name = name(column.name());
            String clash = sources.put(name, column.name());
            if (clash != null) {
                throw new GlueSchemaConflictException(
                        "Stream "
                                + schema.stream()
                                + " has columns '"
                                + clash
                                + "' and '"
                                + column.name()
                                + "', which are the same Glue column "
                                + name
                                + ": Glue and Athena fold column names to lower case. Rename one"
                                + " at the source.");
            }
            columns.add(Column.builder().name(name).type(HiveTypes.of(column.type())).build());
        }
        columns.add(Column.builder().name(JsonText.ID).type("string").build());
        columns.add(Column.builder().name(JsonText.SYNCED_AT).type("timestamp").build());
        return columns;
    }

    static String name(String column) {
        return column.toLowerCase(Locale.ROOT);
    }

    /**
     * The columns of {@code wanted} that {@code existing} lacks. A column the table already has
     * must have the same type: the sink adds columns and never changes one.
     *
     * @param stream the stream, for the message
     * @param table the table as {@code database.table}, for the message
     * @throws GlueSchemaConflictException if a column would change type
     */
    static List<Column> added(
            String stream, String table, List<Column> existing, List<Column> wanted) {
        Map<String, String> have = new LinkedHashMap<>();
        for (Column column : existing) {
            have.put(name(column.name()), column.type());
        }
        List<Column> added = new ArrayList<>();
        for (Column column : wanted) {
            String type = have.get(column.name());
            if (type == null) {
                added.add(column);
            } else if (!normalise(type).equals(column.type())) {
                throw new GlueSchemaConflictException(
                        "Cannot write stream "
                                + stream
                                + " into Glue table "
                                + table
                                + ": column "
                                + column.name()
                                + " is "
                                + type
                                + " there, and the stream now writes it as "
                                + column.type()
                                + ". The Glue schema sink adds columns but never changes a"
                                + " column's type: change the column in Glue yourself, or drop"
                                + " the table so that Skippr creates it again.");
            }
        }
        return added;
    }

    /** A Hive type as this class writes it: lower case, no spaces, {@code integer} as int. */
    static String normalise(String type) {
        String t = type.toLowerCase(Locale.ROOT).replace(" ", "");
        return t.equals("integer") ? "int" : t;
    }
}
