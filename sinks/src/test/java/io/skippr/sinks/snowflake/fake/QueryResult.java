package io.skippr.sinks.snowflake.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A statement's answer in Snowflake's JSON result format: {@code rowtype} (each column's Snowflake
 * type, precision, scale) and {@code rowset} (every value as the string the driver parses: numbers
 * as decimals, dates as days since the epoch, timestamps as seconds since the epoch with nine
 * fractional digits, binary as hex), with the statement type id the driver counts updates by.
 */
final class QueryResult {
    /** Snowflake's statement type ids (the driver's {@code SFStatementType}). */
    static final long SELECT = 0x1000;

    static final long INSERT = 0x3100;
    static final long UPDATE = 0x3200;
    static final long DELETE = 0x3300;
    static final long MERGE = 0x3400;
    static final long COPY = 0x3600;
    static final long ALTER_SESSION = 0x4100;
    static final long USE = 0x4300;
    static final long LIST = 0x4701;
    static final long TCL = 0x5000;
    static final long DDL = 0x6000;
    static final long PUT = 0x7102;
    static final long REMOVE = 0x7103;

    record Column(String name, String type, int precision, int scale, int length) {
        static Column text(String name) {
            return new Column(name, "text", 0, 0, 16_777_216);
        }

        static Column fixed(String name) {
            return new Column(name, "fixed", 19, 0, 0);
        }
    }

    final List<Column> columns;
    final List<List<String>> rows;
    final long statementType;

    QueryResult(List<Column> columns, List<List<String>> rows, long statementType) {
        this.columns = columns;
        this.rows = rows;
        this.statementType = statementType;
    }

    /**
     * One text column {@code status} with one row, as Snowflake answers DDL and session commands.
     */
    static QueryResult status(String message, long statementType) {
        return new QueryResult(
                List.of(Column.text("status")), List.of(List.of(message)), statementType);
    }

    /** One row of counts, as Snowflake answers DML ("number of rows inserted", ...). */
    static QueryResult counts(long statementType, List<String> names, List<Long> counts) {
        List<Column> columns = names.stream().map(Column::fixed).toList();
        return new QueryResult(
                columns, List.of(counts.stream().map(String::valueOf).toList()), statementType);
    }

    /**
     * This result with every value that is a stand-in of {@link BackingNames} replaced by the name
     * it stands for: a catalog query's answer, whose values are names.
     */
    QueryResult withOriginalNames() {
        List<List<String>> named = new ArrayList<>();
        for (List<String> row : rows) {
            List<String> out = new ArrayList<>(row.size());
            for (String v : row) {
                out.add(BackingNames.original(v));
            }
            named.add(out);
        }
        return new QueryResult(columns, named, statementType);
    }

    static QueryResult of(ResultSet rs) throws SQLException, SnowflakeError {
        ResultSetMetaData meta = rs.getMetaData();
        List<Column> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(column(meta, i));
        }
        List<List<String>> rows = new ArrayList<>();
        while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= columns.size(); i++) {
                row.add(value(rs, i, columns.get(i - 1).type()));
            }
            rows.add(row);
        }
        return new QueryResult(columns, rows, SELECT);
    }

    private static Column column(ResultSetMetaData meta, int i)
            throws SQLException, SnowflakeError {
        String name = BackingNames.original(meta.getColumnLabel(i));
        String pgType = meta.getColumnTypeName(i);
        return switch (pgType) {
            case "numeric" -> {
                int precision = meta.getPrecision(i);
                int scale = meta.getScale(i);
                // an unconstrained numeric (an expression's) reports precision 0 or 1000
                yield precision == 0 || precision > 38
                        ? new Column(name, "fixed", 38, Math.max(0, Math.min(scale, 37)), 0)
                        : new Column(name, "fixed", precision, scale, 0);
            }
            case "int2", "int4", "int8" -> new Column(name, "fixed", 18, 0, 0);
            case "float4", "float8" -> new Column(name, "real", 0, 0, 0);
            case "varchar", "text", "bpchar", "name" -> {
                int length = meta.getPrecision(i);
                yield new Column(
                        name,
                        "text",
                        0,
                        0,
                        length <= 0 || length > 16_777_216 ? 16_777_216 : length);
            }
            case "bool" -> new Column(name, "boolean", 0, 0, 0);
            case "date" -> new Column(name, "date", 0, 0, 0);
            case "time" -> new Column(name, "time", 0, 9, 0);
            case "timestamp" -> new Column(name, "timestamp_ntz", 0, 9, 0);
            case "timestamptz" -> new Column(name, "timestamp_ltz", 0, 9, 0);
            case "jsonb", "json" -> new Column(name, "variant", 0, 0, 16_777_216);
            case "bytea" -> new Column(name, "binary", 0, 0, 8_388_608);
            case "void" -> new Column(name, "text", 0, 0, 16_777_216);
            default ->
                    throw SnowflakeError.unsupported("result column of PostgreSQL type " + pgType);
        };
    }

    private static String value(ResultSet rs, int i, String type) throws SQLException {
        switch (type) {
            case "fixed" -> {
                BigDecimal v = rs.getBigDecimal(i);
                return v == null ? null : v.toPlainString();
            }
            case "real" -> {
                double v = rs.getDouble(i);
                return rs.wasNull() ? null : Double.toString(v);
            }
            case "boolean" -> {
                boolean v = rs.getBoolean(i);
                return rs.wasNull() ? null : v ? "1" : "0";
            }
            case "date" -> {
                LocalDate v = rs.getObject(i, LocalDate.class);
                return v == null ? null : Long.toString(v.toEpochDay());
            }
            case "time" -> {
                LocalTime v = rs.getObject(i, LocalTime.class);
                return v == null ? null : BigDecimal.valueOf(v.toNanoOfDay(), 9).toPlainString();
            }
            case "timestamp_ntz" -> {
                LocalDateTime v = rs.getObject(i, LocalDateTime.class);
                return v == null ? null : seconds(v.toEpochSecond(ZoneOffset.UTC), v.getNano());
            }
            case "timestamp_ltz" -> {
                OffsetDateTime v = rs.getObject(i, OffsetDateTime.class);
                return v == null ? null : seconds(v.toEpochSecond(), v.getNano());
            }
            case "binary" -> {
                byte[] v = rs.getBytes(i);
                return v == null ? null : HexFormat.of().withUpperCase().formatHex(v);
            }
            default -> {
                return rs.getString(i);
            }
        }
    }

    private static String seconds(long epochSecond, int nano) {
        return BigDecimal.valueOf(epochSecond).add(BigDecimal.valueOf(nano, 9)).toPlainString();
    }

    /** The {@code data} object of a successful query response. */
    ObjectNode data(String queryId, FakeSession session) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode data = f.objectNode();
        ArrayNode rowtype = data.putArray("rowtype");
        for (Column c : columns) {
            ObjectNode col = rowtype.addObject();
            col.put("name", c.name());
            col.put("type", c.type());
            col.put("precision", c.precision());
            col.put("scale", c.scale());
            col.put("length", c.length());
            col.put("byteLength", c.length());
            col.put("nullable", true);
            col.putNull("database");
            col.putNull("schema");
            col.putNull("table");
        }
        ArrayNode rowset = data.putArray("rowset");
        for (List<String> row : rows) {
            ArrayNode r = rowset.addArray();
            row.forEach(r::add);
        }
        data.put("total", rows.size());
        data.put("returned", rows.size());
        data.put("queryId", queryId);
        data.put("queryResultFormat", "json");
        data.put("statementTypeId", statementType);
        data.put("version", 1);
        data.put("finalDatabaseName", session.database());
        data.put("finalSchemaName", session.schema());
        data.put("finalWarehouseName", session.warehouse());
        data.put("finalRoleName", session.role());
        data.putArray("parameters");
        return data;
    }
}
