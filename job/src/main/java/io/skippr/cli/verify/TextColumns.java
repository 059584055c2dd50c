package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
import io.skippr.sinks.duckdb.DuckDbDialect;
import io.skippr.sinks.files.JsonText;
import io.skippr.sources.postgres.ColumnInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A LocalFile sink's JSONL or CSV text read back typed from the source's schema: each value's text,
 * exactly as the sink wrote it ({@link JsonText}, {@code CsvRowFileWriter}), cast in DuckDB to the
 * type the DuckDB sink gives the column, so it is compared as a DuckDB destination's value.
 * Decimals and JSON stay exact: a {@code DECIMAL(p,s)} up to 38 digits is cast from its exact text,
 * a wider or unbounded one and a JSON value stay the text written.
 */
final class TextColumns {
    private static final DuckDbDialect DUCKDB = new DuckDbDialect();

    private TextColumns() {}

    /**
     * The SELECT over {@code relation} (whose columns are texts) of the source's {@code columns}
     * found in it ({@code present}), typed, with {@code _skippr_deleted} when present.
     */
    static String select(
            String relation,
            Set<String> present,
            List<ColumnInfo> columns,
            UnaryOperator<String> quote) {
        List<String> typed = new ArrayList<>();
        if (present.contains(JsonText.ID)) {
            typed.add(quote.apply(JsonText.ID)); // never compared; keeps the list non-empty
        }
        for (ColumnInfo c : columns) {
            if (present.contains(c.name()) && !c.name().equals(JsonText.ID)) {
                String q = quote.apply(c.name());
                typed.add(cast(c.type(), q) + " AS " + q);
            }
        }
        if (present.contains(Tables.SOFT_DELETED)
                && columns.stream().noneMatch(c -> c.name().equals(Tables.SOFT_DELETED))) {
            String q = quote.apply(Tables.SOFT_DELETED);
            typed.add(cast(DataType.BOOLEAN, q) + " AS " + q);
        }
        return "SELECT " + String.join(", ", typed) + " FROM " + relation;
    }

    /** The SQL of a value of {@code type} from its text {@code text}, as the sink wrote it. */
    static String cast(DataType type, String text) {
        return switch (type.kind()) {
            case STRING, JSON -> text;
            // base64
            case BYTES -> "from_base64(" + text + ")";
            // ISO-8601 as java.time prints it: a year past 9999 has a '+'
            case DATE, TIMESTAMP, TIMESTAMP_TZ ->
                    "CAST(ltrim(" + text + ", '+') AS " + DUCKDB.columnType(type) + ")";
            // an unbounded or too wide decimal is VARCHAR: its exact text, compared as a number
            default -> {
                String duck = DUCKDB.columnType(type);
                yield duck.equals("VARCHAR") ? text : "CAST(" + text + " AS " + duck + ")";
            }
        };
    }
}
