package io.skippr.conformance;

import io.skippr.core.record.DataType.Kind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The type round-trip matrix: one PostgreSQL column per Skippr type, and rows of ordinary, edge and
 * null values. {@link #EXPECTED} holds each row's values in {@link Canonical} form, as they were
 * inserted; every destination must give them back (allowing for its documented differences).
 */
final class TypeMatrix {
    private TypeMatrix() {}

    static final String TABLE = "types";

    /** Column, its PostgreSQL type and the Skippr kind it maps to. */
    record Col(String name, String pgType, Kind kind) {}

    static final List<Col> COLUMNS =
            List.of(
                    new Col("i16", "smallint", Kind.INT16),
                    new Col("i32", "integer", Kind.INT32),
                    new Col("i64", "bigint", Kind.INT64),
                    new Col("num", "numeric(20,6)", Kind.DECIMAL),
                    new Col("f32", "real", Kind.FLOAT32),
                    new Col("f64", "double precision", Kind.FLOAT64),
                    new Col("txt", "text", Kind.STRING),
                    new Col("flag", "boolean", Kind.BOOLEAN),
                    new Col("day", "date", Kind.DATE),
                    new Col("tod", "time", Kind.TIME),
                    new Col("ts", "timestamp", Kind.TIMESTAMP),
                    new Col("tstz", "timestamptz", Kind.TIMESTAMP_TZ),
                    new Col("doc", "jsonb", Kind.JSON),
                    new Col("uid", "uuid", Kind.UUID),
                    new Col("raw", "bytea", Kind.BYTES));

    /** Row id to column to canonical value; null columns are absent. */
    static final Map<Long, Map<String, String>> EXPECTED = new LinkedHashMap<>();

    private static final List<String> INSERTS =
            List.of(
                    "(1, 12, 123456, 1234567890123, 12345.678901, 1.5, 2.25, 'plain text', true,"
                            + " '2026-11-29', '13:14:15.123456', '2026-11-29 13:14:15.123456',"
                            + " '2026-11-29 13:14:15.123456+00', '{\"a\": 1, \"b\": [true, null],"
                            + " \"c\": \"x y\"}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',"
                            + " '\\x00ff10')",
                    "(2, -32768, -2147483648, -9223372036854775808, -99999999999999.999999,"
                            + " -3.25e38, 'NaN', E'\u00fcn\u00efc\u00f8de \u2713 \\U0001D11E"
                            + " tab\\there, line\\nbreak, bell\\x07, quote'' \"dq\" back\\\\slash',"
                            + " false, '2000-02-29', '00:00:00', '2000-02-29 00:00:00',"
                            + " '1999-12-31 23:00:00-05', '[]',"
                            + " '00000000-0000-0000-0000-000000000000', '\\x')",
                    "(3, 32767, 2147483647, 9223372036854775807, 99999999999999.999999, 3.25e38,"
                            + " -1.7976931348623157e308, '', false, '2099-12-31',"
                            + " '23:59:59.999999', '2099-12-31 23:59:59.999999',"
                            + " '2099-12-31 23:59:59.999999+00', '\"just text\"',"
                            + " 'ffffffff-ffff-ffff-ffff-ffffffffffff', '\\xdeadbeef')",
                    "(4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                            + " NULL, NULL, NULL)");

    static {
        EXPECTED.put(
                1L,
                row(
                        "12",
                        "123456",
                        "1234567890123",
                        "12345.678901",
                        "1.5",
                        "2.25",
                        "plain text",
                        "true",
                        "2026-11-29",
                        "13:14:15.123456",
                        "2026-11-29T13:14:15.123456",
                        "2026-11-29T13:14:15.123456Z",
                        "{\"a\":1,\"b\":[true,null],\"c\":\"x y\"}",
                        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                        "00ff10"));
        EXPECTED.put(
                2L,
                row(
                        "-32768",
                        "-2147483648",
                        "-9223372036854775808",
                        "-99999999999999.999999",
                        "-3.25E38",
                        "NaN",
                        "\u00fcn\u00efc\u00f8de \u2713 \uD834\uDD1E tab\there, line\nbreak,"
                                + " bell\u0007, quote' \"dq\" back\\slash",
                        "false",
                        "2000-02-29",
                        "00:00",
                        "2000-02-29T00:00",
                        "2000-01-01T04:00:00Z",
                        "[]",
                        "00000000-0000-0000-0000-000000000000",
                        ""));
        EXPECTED.put(
                3L,
                row(
                        "32767",
                        "2147483647",
                        "9223372036854775807",
                        "99999999999999.999999",
                        "3.25E38",
                        "-1.7976931348623157E308",
                        "",
                        "false",
                        "2099-12-31",
                        "23:59:59.999999",
                        "2099-12-31T23:59:59.999999",
                        "2099-12-31T23:59:59.999999Z",
                        "\"just text\"",
                        "ffffffff-ffff-ffff-ffff-ffffffffffff",
                        "deadbeef"));
        EXPECTED.put(4L, new LinkedHashMap<>());
    }

    private static Map<String, String> row(String... values) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            row.put(COLUMNS.get(i).name(), values[i]);
        }
        return row;
    }

    /** Creates the matrix's table at the kit's source. */
    static void create(SourceTable source) throws Exception {
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY");
        for (Col c : COLUMNS) {
            ddl.append(", ").append(c.name()).append(' ').append(c.pgType());
        }
        source.exec(
                ddl.append(")").toString(),
                "INSERT INTO " + TABLE + " VALUES " + String.join(", ", INSERTS));
    }
}
