package io.skippr.sinks.databricks.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A statement's answer in the Statement Execution API's {@code JSON_ARRAY} format: the manifest's
 * schema (each column's Databricks type) and {@code data_array}, every value as its string form or
 * JSON {@code null}: numbers as decimals, booleans as {@code true}/{@code false}, dates ISO, {@code
 * TIMESTAMP} as an ISO instant in UTC ({@code 2024-01-01T00:00:01.007Z}), {@code TIMESTAMP_NTZ}
 * without the zone, {@code BINARY} in base64. The whole result is one inline chunk.
 */
final class Result {
    /** One column of the manifest's schema. */
    record Column(String name, String typeName, String typeText, int precision, int scale) {
        static Column of(String name, String typeName, String typeText) {
            return new Column(name, typeName, typeText, -1, -1);
        }
    }

    final List<Column> columns;
    final List<List<String>> rows;
    final boolean truncated;

    Result(List<Column> columns, List<List<String>> rows) {
        this(columns, rows, false);
    }

    private Result(List<Column> columns, List<List<String>> rows, boolean truncated) {
        this.columns = columns;
        this.rows = rows;
        this.truncated = truncated;
    }

    /** No columns and no rows, as DDL answers. */
    static Result empty() {
        return new Result(List.of(), List.of());
    }

    /** One row of {@code BIGINT} counts, as DML and COPY INTO answer. */
    static Result counts(List<String> names, List<Long> counts) {
        return new Result(
                names.stream().map(n -> Column.of(n, "LONG", "BIGINT")).toList(),
                List.of(counts.stream().map(String::valueOf).toList()));
    }

    /** The rows of {@code rs}, at most {@code rowLimit} of them unless it is negative. */
    static Result of(ResultSet rs, long rowLimit) throws SQLException, DatabricksError {
        ResultSetMetaData meta = rs.getMetaData();
        List<Column> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(column(meta, i));
        }
        List<List<String>> rows = new ArrayList<>();
        boolean truncated = false;
        while (rs.next()) {
            if (rowLimit >= 0 && rows.size() == rowLimit) {
                truncated = true;
                break;
            }
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= columns.size(); i++) {
                row.add(value(rs, i, meta.getColumnTypeName(i)));
            }
            rows.add(row);
        }
        return new Result(columns, rows, truncated);
    }

    private static Column column(ResultSetMetaData meta, int i)
            throws SQLException, DatabricksError {
        String name = UnityCatalog.original(meta.getColumnLabel(i));
        String pgType = meta.getColumnTypeName(i);
        return switch (pgType) {
            case "int8" -> Column.of(name, "LONG", "BIGINT");
            case "int4" -> Column.of(name, "INT", "INT");
            case "int2" -> Column.of(name, "SHORT", "SMALLINT");
            case "float8" -> Column.of(name, "DOUBLE", "DOUBLE");
            case "float4" -> Column.of(name, "FLOAT", "FLOAT");
            case "numeric" -> {
                int precision = meta.getPrecision(i);
                int scale = meta.getScale(i);
                if (precision <= 0 || precision > 38) {
                    // an unconstrained numeric (an expression's): Databricks' widest decimal
                    precision = 38;
                    scale = Math.max(0, Math.min(scale, 18));
                }
                yield new Column(
                        name,
                        "DECIMAL",
                        "DECIMAL(" + precision + "," + scale + ")",
                        precision,
                        scale);
            }
            case "text", "varchar", "bpchar", "name" -> Column.of(name, "STRING", "STRING");
            case "bool" -> Column.of(name, "BOOLEAN", "BOOLEAN");
            case "date" -> Column.of(name, "DATE", "DATE");
            case "timestamptz" -> Column.of(name, "TIMESTAMP", "TIMESTAMP");
            case "timestamp" -> Column.of(name, "TIMESTAMP_NTZ", "TIMESTAMP_NTZ");
            case "bytea" -> Column.of(name, "BINARY", "BINARY");
            default ->
                    throw DatabricksError.unsupported(
                            "a result column of the backing PostgreSQL's type " + pgType);
        };
    }

    private static String value(ResultSet rs, int i, String pgType) throws SQLException {
        switch (pgType) {
            case "numeric" -> {
                BigDecimal v = rs.getBigDecimal(i);
                return v == null ? null : v.toPlainString();
            }
            case "float8" -> {
                double v = rs.getDouble(i);
                return rs.wasNull() ? null : Double.toString(v);
            }
            case "float4" -> {
                float v = rs.getFloat(i);
                return rs.wasNull() ? null : Float.toString(v);
            }
            case "bool" -> {
                boolean v = rs.getBoolean(i);
                return rs.wasNull() ? null : Boolean.toString(v);
            }
            case "date" -> {
                LocalDate v = rs.getObject(i, LocalDate.class);
                return v == null ? null : v.toString();
            }
            case "timestamptz" -> {
                OffsetDateTime v = rs.getObject(i, OffsetDateTime.class);
                return v == null
                        ? null
                        : timestamp(v.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime())
                                + "Z";
            }
            case "timestamp" -> {
                LocalDateTime v = rs.getObject(i, LocalDateTime.class);
                return v == null ? null : timestamp(v);
            }
            case "bytea" -> {
                byte[] v = rs.getBytes(i);
                return v == null ? null : Base64.getEncoder().encodeToString(v);
            }
            default -> {
                return rs.getString(i);
            }
        }
    }

    /** {@code 2024-01-01T00:00:01.007}: milliseconds always, microseconds when there are any. */
    private static String timestamp(LocalDateTime v) {
        String date = v.toLocalDate().toString();
        String time =
                String.format(
                        "%02d:%02d:%02d.%03d",
                        v.getHour(), v.getMinute(), v.getSecond(), v.getNano() / 1_000_000);
        int micros = (v.getNano() / 1000) % 1000;
        return date + "T" + time + (micros == 0 ? "" : String.format("%03d", micros));
    }

    /** The {@code manifest} of a successful statement. */
    ObjectNode manifest() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode manifest = f.objectNode();
        manifest.put("format", "JSON_ARRAY");
        ObjectNode schema = manifest.putObject("schema");
        schema.put("column_count", columns.size());
        ArrayNode cols = schema.putArray("columns");
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            ObjectNode col = cols.addObject();
            col.put("name", c.name());
            col.put("position", i);
            col.put("type_name", c.typeName());
            col.put("type_text", c.typeText());
            if (c.precision() >= 0) {
                col.put("type_precision", c.precision());
                col.put("type_scale", c.scale());
            }
        }
        manifest.put("total_chunk_count", 1);
        ObjectNode chunk = manifest.putArray("chunks").addObject();
        chunk.put("chunk_index", 0);
        chunk.put("row_offset", 0);
        chunk.put("row_count", rows.size());
        manifest.put("total_row_count", rows.size());
        manifest.put("truncated", truncated);
        return manifest;
    }

    /** The {@code result}: chunk 0, with {@code data_array} when there are rows. */
    ObjectNode data() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode data = f.objectNode();
        data.put("chunk_index", 0);
        data.put("row_offset", 0);
        data.put("row_count", rows.size());
        if (!rows.isEmpty()) {
            ArrayNode array = data.putArray("data_array");
            for (List<String> row : rows) {
                ArrayNode r = array.addArray();
                row.forEach(r::add);
            }
        }
        return data;
    }
}
