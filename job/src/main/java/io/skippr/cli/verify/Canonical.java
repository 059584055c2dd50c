package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One text per value, computed in SQL on each side, so a source value and the value loaded from it
 * print the same text whatever the destination's own formatting. A row's hash is the md5 of its
 * columns' md5s (or {@code N} for NULL), so a NULL and an empty text differ and no separator can be
 * forged by a value. See docs/verify.md for the forms.
 */
final class Canonical {
    /**
     * The SQL a side is read with: the PostgreSQL source, a PostgreSQL, DuckDB, ClickHouse,
     * Redshift, Snowflake or BigQuery sink.
     */
    enum Dialect {
        POSTGRES,
        DUCKDB,
        CLICKHOUSE,
        REDSHIFT,
        SNOWFLAKE,
        BIGQUERY
    }

    /**
     * Which documented differences of the destination both sides' canonical texts apply.
     *
     * @param jsonAsStored compare JSON as the text stored (DuckDB and ClickHouse keep the text they
     *     are given), else as PostgreSQL's jsonb text (a PostgreSQL destination's columns are
     *     jsonb)
     * @param wholeSeconds timestamps to whole seconds (ClickHouse 18.16's DateTime drops the
     *     fraction)
     * @param jsonAsJsonl JSON as a JSONL file holds it: a value that is JSON's {@code null}
     *     compared as NULL (JSONL files write it as they write a NULL), line breaks between tokens
     *     as spaces (a file keeps each row on its line)
     * @param asBigQuery BigQuery's differences (BigQueryCanonical): a double to 15 significant
     *     digits, a real as its own shortest text, JSON by its presence only
     */
    record Form(
            boolean jsonAsStored, boolean wholeSeconds, boolean jsonAsJsonl, boolean asBigQuery) {
        static final Form EXACT = new Form(false, false);

        Form(boolean jsonAsStored, boolean wholeSeconds) {
            this(jsonAsStored, wholeSeconds, false, false);
        }

        Form(boolean jsonAsStored, boolean wholeSeconds, boolean jsonAsJsonl) {
            this(jsonAsStored, wholeSeconds, jsonAsJsonl, false);
        }
    }

    private Canonical() {}

    /**
     * The md5 of a row of {@code columns} (quoted names, each with its Skippr type), in a text the
     * other side computes alike: each value's canonical text prefixed with its length in bytes
     * ({@code N} for NULL), so the texts of different rows never run together the same way. One md5
     * per row: an md5 per value cost twice the time (5 columns, PostgreSQL 15, 1M rows: 4.8 s
     * against 2.3 s).
     */
    static String rowHash(Dialect dialect, List<Column> columns, Form form) {
        String joined =
                columns.stream()
                        .map(
                                c ->
                                        (dialect == Dialect.CLICKHOUSE ? "ifNull(" : "coalesce(")
                                                + prefixed(
                                                        dialect,
                                                        value(dialect, c.type(), c.sql(), form))
                                                + ", 'N')")
                        .collect(Collectors.joining(" || '|' || "));
        return md5(dialect, joined);
    }

    /** {@code <bytes>:<text>} of a canonical text; NULL for NULL. */
    private static String prefixed(Dialect dialect, String text) {
        String bytes =
                switch (dialect) {
                    case POSTGRES, REDSHIFT, SNOWFLAKE -> text("octet_length(" + text + ")");
                    case BIGQUERY -> BigQueryCanonical.text("BYTE_LENGTH(" + text + ")");
                    case DUCKDB -> text("strlen(" + text + ")");
                    // a CAST to String refuses NULL there; toString keeps it
                    case CLICKHOUSE -> "toString(length(" + text + "))";
                };
        return bytes + " || ':' || " + text;
    }

    private static String md5(Dialect dialect, String sql) {
        return switch (dialect) {
            case CLICKHOUSE -> "lower(hex(MD5(" + sql + ")))";
            // MD5 is BYTES there
            case BIGQUERY -> "TO_HEX(MD5(" + sql + "))";
            default -> "md5(" + sql + ")";
        };
    }

    /** The order-free sums of a range's row hashes, as the columns of a SELECT (see Side). */
    static String hashSums(Dialect dialect, String hash) {
        return switch (dialect) {
            case POSTGRES ->
                    "CAST(sum(('x' || substr(" + hash + ", 1, 15))::bit(60)::bigint) AS VARCHAR)";
            case DUCKDB ->
                    "CAST(sum(CAST('0x' || substr(" + hash + ", 1, 15) AS BIGINT)) AS VARCHAR)";
            // STRTOL returns a BIGINT, whose SUM is a BIGINT there: summed as DECIMAL(38,0)
            case REDSHIFT ->
                    "CAST(sum(CAST(strtol(substr("
                            + hash
                            + ", 1, 15), 16) AS DECIMAL(38,0))) AS VARCHAR)";
            // TO_NUMBER's hex format gives a NUMBER(38,0), whose SUM is a NUMBER(38,0)
            case SNOWFLAKE ->
                    "CAST(sum(to_number(substr("
                            + hash
                            + ", 1, 15), 'XXXXXXXXXXXXXXX')) AS VARCHAR)";
            // a hex INT64 from its 0x text, summed as BIGNUMERIC: an INT64 SUM fails on overflow
            case BIGQUERY ->
                    "CAST(SUM(CAST(CAST('0x' || SUBSTR("
                            + hash
                            + ", 1, 15) AS INT64) AS BIGNUMERIC)) AS STRING)";
            case CLICKHOUSE ->
                    "sum(reinterpretAsUInt32(reverse(unhex(substring("
                            + hash
                            + ", 1, 8))))), sum(reinterpretAsUInt32(reverse(unhex(concat('0',"
                            + " substring("
                            + hash
                            + ", 9, 7))))))";
        };
    }

    /** A column as SQL reads it: its quoted name and its Skippr type. */
    record Column(String sql, DataType type) {}

    /** The canonical text of {@code column} of {@code type}; NULL for NULL. */
    static String value(Dialect dialect, DataType type, String column, Form form) {
        if (dialect == Dialect.CLICKHOUSE) {
            return ClickHouseCanonical.value(type, column);
        }
        if (dialect == Dialect.REDSHIFT) {
            return RedshiftCanonical.value(type, column);
        }
        if (dialect == Dialect.SNOWFLAKE) {
            return SnowflakeCanonical.value(type, column);
        }
        if (dialect == Dialect.BIGQUERY) {
            return BigQueryCanonical.value(type, column);
        }
        boolean pg = dialect == Dialect.POSTGRES;
        if (pg && form.asBigQuery()) {
            String source = BigQueryCanonical.source(type, column);
            if (source != null) {
                return source;
            }
        }
        return switch (type.kind()) {
            case BOOLEAN ->
                    "CASE WHEN " + column + " THEN 't' WHEN NOT " + column + " THEN 'f' END";
            case INT16, INT32, INT64, UUID -> text(column);
            case FLOAT32, FLOAT64 -> floating(pg ? column + "::float8::text" : doubleText(column));
            case DECIMAL -> decimal(text(column));
            case STRING -> text(column);
            case JSON -> json(pg, column, form);
            case BYTES -> pg ? "encode(" + column + ", 'hex')" : "lower(hex(" + column + "))";
            case DATE -> text("(" + column + " - DATE '1970-01-01')");
            case TIME ->
                    text(
                            "CAST((extract(hour FROM "
                                    + column
                                    + ") * 60 + extract(minute FROM "
                                    + column
                                    + ")) * 60000000 + extract(microseconds FROM "
                                    + column
                                    + ") AS BIGINT)");
            case TIMESTAMP, TIMESTAMP_TZ -> timestamp(pg, column, form.wholeSeconds());
        };
    }

    private static String json(boolean pg, String column, Form form) {
        String t = pg && !form.jsonAsStored() ? column + "::jsonb::text" : text(column);
        return pg && form.jsonAsJsonl()
                ? "CASE WHEN json_typeof("
                        + column
                        + "::json) <> 'null' THEN translate("
                        + t
                        + ", E'\\n\\r', '  ') END"
                : t;
    }

    private static String timestamp(boolean pg, String column, boolean wholeSeconds) {
        if (wholeSeconds) {
            return pg
                    ? text("CAST(floor(extract(epoch FROM " + column + ")) AS BIGINT) * 1000000")
                    : text("(epoch_us(" + column + ") // 1000000) * 1000000");
        }
        return pg
                ? text("CAST(extract(epoch FROM " + column + ") * 1000000 AS BIGINT)")
                : text("epoch_us(" + column + ")");
    }

    static String text(String sql) {
        return "CAST(" + sql + " AS VARCHAR)";
    }

    private static String doubleText(String column) {
        return "CAST(CAST(" + column + " AS DOUBLE) AS VARCHAR)";
    }

    /** Trailing zeros of the fraction dropped: 1234.50 and 1234.5 are one value. */
    static String decimal(String t) {
        return decimal(t, TextSql.STANDARD);
    }

    /** {@link #decimal(String)} in the database's text functions. */
    static String decimal(String t, TextSql sql) {
        return "CASE WHEN "
                + sql.position("'.'", t)
                + " > 0 THEN rtrim(rtrim("
                + t
                + ", '0'), '.') ELSE "
                + t
                + " END";
    }

    /**
     * A double's shortest round-trip text {@code t}, as either database prints it, brought to one
     * form: {@code NaN}, {@code Infinity}, {@code -Infinity}, {@code 0}, {@code -0}, or sign,
     * significant digits, {@code e}, and the exponent of 0.digits ({@code 1.5} is {@code 15e1}).
     */
    static String floating(String t) {
        return floating(t, TextSql.STANDARD);
    }

    /**
     * The text functions {@link #decimal} and {@link #floating} need, whose names differ between
     * databases: standard SQL's in {@link #STANDARD} (PostgreSQL, DuckDB, Redshift, Snowflake).
     */
    interface TextSql {
        /**
         * The {@code n}th part (from 1) of {@code text} cut at {@code separator}, '' past the last.
         */
        String splitPart(String text, String separator, int n);

        /** Where {@code needle} starts in {@code text}, from 1; 0 when it is not there. */
        String position(String needle, String text);

        /** The integer type a cast names. */
        String integer();

        /** The text type a cast names. */
        String text();

        TextSql STANDARD =
                new TextSql() {
                    @Override
                    public String splitPart(String text, String separator, int n) {
                        return "split_part(" + text + ", " + separator + ", " + n + ")";
                    }

                    @Override
                    public String position(String needle, String text) {
                        return "position(" + needle + " IN " + text + ")";
                    }

                    @Override
                    public String integer() {
                        return "INTEGER";
                    }

                    @Override
                    public String text() {
                        return "VARCHAR";
                    }
                };
    }

    /** {@link #floating(String)} in the database's text functions. */
    static String floating(String t, TextSql sql) {
        String a = "ltrim(" + t + ", '-')";
        String mantissa = sql.splitPart(a, "'e'", 1);
        String exponent =
                "CASE WHEN "
                        + sql.position("'e'", a)
                        + " > 0 THEN CAST("
                        + sql.splitPart(a, "'e'", 2)
                        + " AS "
                        + sql.integer()
                        + ") ELSE 0 END";
        String whole = sql.splitPart(mantissa, "'.'", 1);
        String digits = "(" + whole + " || " + sql.splitPart(mantissa, "'.'", 2) + ")";
        String leadingZeros = "(length(" + digits + ") - length(ltrim(" + digits + ", '0')))";
        String sign = "CASE WHEN left(" + t + ", 1) = '-' THEN '-' ELSE '' END";
        return "CASE WHEN lower("
                + t
                + ") = 'nan' THEN 'NaN'"
                + " WHEN lower("
                + t
                + ") IN ('infinity', 'inf') THEN 'Infinity'"
                + " WHEN lower("
                + t
                + ") IN ('-infinity', '-inf') THEN '-Infinity'"
                + " WHEN ltrim("
                + digits
                + ", '0') = '' THEN "
                + sign
                + " || '0'"
                + " ELSE "
                + sign
                + " || rtrim(ltrim("
                + digits
                + ", '0'), '0') || 'e' || CAST("
                + "length("
                + whole
                + ") + "
                + exponent
                + " - "
                + leadingZeros
                + " AS "
                + sql.text()
                + ") END";
    }

    /** {@code name} quoted as an identifier of {@code dialect} (an alias, a column). */
    static String name(Dialect dialect, String name) {
        return dialect == Dialect.BIGQUERY
                ? "`" + name.replace("`", "\\`") + "`"
                : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** {@code a} modulo {@code b}: BigQuery has no {@code %} operator. */
    static String mod(Dialect dialect, String a, String b) {
        return dialect == Dialect.BIGQUERY ? "MOD(" + a + ", " + b + ")" : a + " % " + b;
    }
}
