package io.skippr.cli.verify;

import io.skippr.core.record.DataType;

/**
 * The canonical texts of {@link Canonical} computed by Amazon Redshift from the columns the
 * Redshift sink creates (docs/connectors/redshift.md), in functions Redshift has: {@code DATEDIFF}
 * for dates, times and timestamps (its {@code EXTRACT} returns one date part alone, and {@code
 * epoch} of a TIMESTAMP as an INTEGER of seconds), {@code FROM_VARBYTE(…, 'hex')} for VARBYTE, an
 * unbounded DECIMAL as the text it is stored as. A double is compared as the text Redshift prints
 * with {@code extra_float_digits} 0 (15 significant digits: it has no shortest round-trip output),
 * and the source's connection is set alike ({@link VerifyCommand#fifteenDigits}).
 */
final class RedshiftCanonical {
    /**
     * Redshift's widest VARCHAR, named in every cast to text: an unsized VARCHAR is 256 bytes in a
     * CREATE TABLE there (in an expression its size follows the input's, at most 65,535), so the
     * width is stated rather than left to that rule.
     */
    static final String VARCHAR = "VARCHAR(65535)";

    private RedshiftCanonical() {}

    static String text(String sql) {
        return "CAST(" + sql + " AS " + VARCHAR + ")";
    }

    static String value(DataType type, String column) {
        return switch (type.kind()) {
            case BOOLEAN ->
                    "CASE WHEN " + column + " THEN 't' WHEN NOT " + column + " THEN 'f' END";
            case INT16, INT32, INT64, UUID, STRING, JSON -> text(column);
            case FLOAT32, FLOAT64 ->
                    Canonical.floating(text("CAST(" + column + " AS DOUBLE PRECISION)"));
            case DECIMAL -> Canonical.decimal(text(column));
            case BYTES -> "from_varbyte(" + column + ", 'hex')";
            case DATE -> text("DATEDIFF(day, DATE '1970-01-01', " + column + ")");
            case TIME -> text("DATEDIFF(microsecond, TIME '00:00:00', " + column + ")");
            case TIMESTAMP ->
                    text("DATEDIFF(microsecond, TIMESTAMP '1970-01-01 00:00:00', " + column + ")");
            case TIMESTAMP_TZ ->
                    text(
                            "DATEDIFF(microsecond, TIMESTAMPTZ '1970-01-01 00:00:00+00', "
                                    + column
                                    + ")");
        };
    }
}
