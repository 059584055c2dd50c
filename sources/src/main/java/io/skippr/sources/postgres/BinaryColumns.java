package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How each column travels in a split's {@code COPY ... (FORMAT binary)} ({@link SplitQuery}): the
 * one place that decides, per column and once from the catalog, whether its value is sent in
 * PostgreSQL's binary form ({@link BinaryValues} decodes it to exactly the value the text protocol
 * gave) or as its text, which is then the value itself.
 *
 * <ul>
 *   <li>Binary: every column whose Skippr type is not STRING (integers, floats, numeric, bool, json
 *       and jsonb, uuid, bytea, date, time, timestamp, timestamptz, and domains over them), and
 *       STRING columns of the built-in text types {@code text}, {@code varchar}, {@code bpchar}
 *       (padded, as its text is) and {@code name}, whose binary form is their UTF-8 text.
 *   <li>Text: every other STRING column (arrays, enums, ranges, geometric types, money, interval,
 *       timetz, inet, extension types such as citext ...), selected as its output function's text
 *       ({@link #outputText}), which is what the text protocol sent. Not {@code ::text}: that cast
 *       differs from the output for some types ({@code inet} adds {@code /32}, {@code bpchar} drops
 *       its padding, {@code bool} spells {@code true}).
 * </ul>
 *
 * <p>After the columns and the row's resume key ({@link RowOrder#select}), a table with columns
 * whose values may have no Skippr representation (numeric NaN and infinities, infinite dates and
 * timestamps) gets one more field: null for a row without such a value, else every column's text as
 * a {@code text[]} ({@link #undecodableText}), so an undecodable row's payload and position are the
 * text they were.
 */
final class BinaryColumns {
    /** Built-in STRING types whose binary form is their text, as the text protocol sends it. */
    private static final Set<String> TEXT_AS_BINARY =
            Set.of(
                    "\"pg_catalog\".\"text\"",
                    "\"pg_catalog\".\"varchar\"",
                    "\"pg_catalog\".\"bpchar\"",
                    "\"pg_catalog\".\"name\"");

    private BinaryColumns() {}

    /** Whether {@code column} is sent in binary; false when it is sent as its text. */
    static boolean binary(ColumnInfo column) {
        return column.type().kind() != DataType.Kind.STRING
                || TEXT_AS_BINARY.contains(column.castType());
    }

    /** Whether {@code column}'s binary value is a jsonb, which starts with a version byte. */
    static boolean jsonb(ColumnInfo column) {
        return column.castType().equals("\"pg_catalog\".\"jsonb\"");
    }

    /** The expression selecting {@code column} of the table aliased {@code alias}. */
    static String select(ColumnInfo column, String alias) {
        String ref = alias + "." + Sql.quote(column.name());
        return binary(column) ? ref : outputText(ref);
    }

    /** {@code ref}'s text as its type's output function writes it; null for NULL. */
    private static String outputText(String ref) {
        return "(CASE WHEN " + ref + " IS NULL THEN NULL ELSE format('%s', " + ref + ") END)";
    }

    /**
     * The field after the resume key, or null when no column of {@code table} can hold a value
     * without a Skippr representation: every column's text when one of the row's does.
     */
    static String undecodableText(TableInfo table, String alias) {
        List<String> any = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (ColumnInfo column : table.columns()) {
            String ref = alias + "." + Sql.quote(column.name());
            texts.add(outputText(ref));
            switch (column.type().kind()) {
                // scale() is null for NaN and the infinities alone, on every server version
                case DECIMAL -> any.add("(" + ref + " IS NOT NULL AND scale(" + ref + ") IS NULL)");
                case DATE, TIMESTAMP, TIMESTAMP_TZ -> any.add("NOT isfinite(" + ref + ")");
                default -> {}
            }
        }
        if (any.isEmpty()) {
            return null;
        }
        return "(CASE WHEN "
                + String.join(" OR ", any)
                + " THEN ARRAY["
                + String.join(", ", texts)
                + "]::text[] END)";
    }
}
