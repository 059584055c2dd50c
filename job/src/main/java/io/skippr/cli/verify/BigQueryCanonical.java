package io.skippr.cli.verify;

import io.skippr.core.record.DataType;

/**
 * The canonical texts of {@link Canonical} computed by BigQuery (GoogleSQL) from the columns the
 * BigQuery sink creates (docs/connectors/bigquery.md), in functions BigQuery has: {@code
 * UNIX_DATE}, {@code TIME_DIFF}, {@code DATETIME_DIFF} and {@code UNIX_MICROS} for dates, times and
 * timestamps, {@code TO_HEX} for BYTES, {@code SPLIT(…)[SAFE_OFFSET(n)]} where PostgreSQL has
 * {@code split_part}.
 *
 * <p>Three documented differences are applied on both sides ({@link Canonical.Form#asBigQuery}):
 * BigQuery prints no shortest round-trip double, so a double is compared to 15 significant digits
 * ({@code FORMAT('%.15g')} there, PostgreSQL's {@code CAST(… AS numeric)}, which keeps 15); the
 * sink writes a real as its decimal text into a {@code FLOAT64}, so a real is compared as that text
 * (the source's own shortest text); and a {@code JSON} column holds BigQuery's normalised document,
 * not the text loaded (keys, spaces and numbers respelled), which PostgreSQL cannot rebuild, so a
 * JSON value is compared by whether it is NULL only.
 */
final class BigQueryCanonical {
    /** GoogleSQL's text functions: no {@code split_part}, no {@code POSITION(… IN …)}. */
    private static final Canonical.TextSql SQL =
            new Canonical.TextSql() {
                @Override
                public String splitPart(String text, String separator, int n) {
                    return "COALESCE(SPLIT("
                            + text
                            + ", "
                            + separator
                            + ")[SAFE_OFFSET("
                            + (n - 1)
                            + ")], '')";
                }

                @Override
                public String position(String needle, String text) {
                    return "STRPOS(" + text + ", " + needle + ")";
                }

                @Override
                public String integer() {
                    return "INT64";
                }

                @Override
                public String text() {
                    return "STRING";
                }
            };

    private BigQueryCanonical() {}

    static String text(String sql) {
        return "CAST(" + sql + " AS STRING)";
    }

    /** The canonical text of {@code column} of {@code type} on BigQuery. */
    static String value(DataType type, String column) {
        return switch (type.kind()) {
            case BOOLEAN ->
                    "CASE WHEN " + column + " THEN 't' WHEN NOT " + column + " THEN 'f' END";
            case INT16, INT32, INT64, UUID, STRING -> text(column);
            case JSON -> present(column);
            // NULL kept NULL: the COALESCE of each part would make it an empty text, so 0
            case FLOAT32, FLOAT64 ->
                    "CASE WHEN "
                            + column
                            + " IS NOT NULL THEN "
                            + Canonical.floating("FORMAT('%.15g', " + column + ")", SQL)
                            + " END";
            case DECIMAL -> Canonical.decimal(text(column), SQL);
            case BYTES -> "TO_HEX(" + column + ")";
            case DATE -> text("UNIX_DATE(" + column + ")");
            case TIME -> text("TIME_DIFF(" + column + ", TIME '00:00:00', MICROSECOND)");
            case TIMESTAMP ->
                    text(
                            "DATETIME_DIFF("
                                    + column
                                    + ", DATETIME '1970-01-01 00:00:00', MICROSECOND)");
            case TIMESTAMP_TZ -> text("UNIX_MICROS(" + column + ")");
        };
    }

    /**
     * The source's (PostgreSQL's) canonical text of {@code column} where BigQuery's differs from
     * the exact one, else null.
     */
    static String source(DataType type, String column) {
        return switch (type.kind()) {
            // float8 to numeric keeps 15 significant digits (PostgreSQL's DBL_DIG); zeros keep
            // their sign and NaN and the infinities their names only as a double's text
            case FLOAT64 ->
                    Canonical.floating(
                            "CASE WHEN "
                                    + column
                                    + " = 0 OR "
                                    + column
                                    + " IN ('NaN', 'Infinity', '-Infinity') THEN "
                                    + column
                                    + "::text ELSE "
                                    + column
                                    + "::numeric::text END");
            case FLOAT32 -> Canonical.floating(column + "::text");
            case JSON -> present(column);
            default -> null;
        };
    }

    private static String present(String column) {
        return "CASE WHEN " + column + " IS NOT NULL THEN 'json' END";
    }
}
