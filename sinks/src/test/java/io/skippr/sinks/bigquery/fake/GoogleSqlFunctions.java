package io.skippr.sinks.bigquery.fake;

import io.skippr.sinks.sql.SqlCalls;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GoogleSQL functions PostgreSQL lacks or spells otherwise, as the fake runs them: PostgreSQL
 * expressions of the same result, in the forms Skippr sends (verify's canonical texts and
 * checksums, the loads table's commit time). Applied to the statement after {@link GoogleSql}'s
 * token translation (type names are PostgreSQL's by then):
 *
 * <ul>
 *   <li>{@code MD5(s)}: the BYTES of the digest ({@code decode(md5(s), 'hex')}); {@code TO_HEX(b)}:
 *       lower-case hex ({@code encode(b, 'hex')}); {@code BYTE_LENGTH(s)}: {@code octet_length};
 *   <li>{@code CAST('0x' || s AS INT64)}: the INT64 of up to 16 hex digits;
 *   <li>{@code UNIX_DATE(d)}: days since 1970-01-01; {@code UNIX_MICROS(ts)}, {@code TIME_DIFF(a,
 *       b, MICROSECOND)} and {@code DATETIME_DIFF(a, b, MICROSECOND)}: microseconds;
 *   <li>{@code FORMAT('%.15g', x)}: the double to 15 significant digits ({@code x::numeric}, which
 *       keeps PostgreSQL's 15; zeros, NaN and the infinities as their names): the same value as
 *       printf's {@code %.15g}, in plain notation rather than with an exponent;
 *   <li>{@code SPLIT(s, sep)[SAFE_OFFSET(n)]}: the (n+1)th part, NULL past the last ({@code
 *       string_to_array});
 *   <li>{@code FORMAT_TIMESTAMP('%Y-%m-%d %H:%M:%S', ts, 'UTC')} and {@code CURRENT_TIMESTAMP()}.
 * </ul>
 *
 * Any other form of these functions is left as it is, so PostgreSQL runs or refuses it as its own.
 */
final class GoogleSqlFunctions {
    private static final Pattern SAFE_OFFSET =
            Pattern.compile(
                    "\\[\\s*SAFE_OFFSET\\s*\\(\\s*(\\d+)\\s*\\)\\s*]", Pattern.CASE_INSENSITIVE);
    private static final Pattern NOW =
            Pattern.compile(
                    "(?<![\"\\w])CURRENT_TIMESTAMP\\s*\\(\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern HEX_CAST =
            Pattern.compile("^'0x'\\s*\\|\\|\\s*(.*)\\s+AS\\s+bigint$", Pattern.DOTALL);

    private GoogleSqlFunctions() {}

    static String translate(String sql) {
        String out = NOW.matcher(sql).replaceAll("CURRENT_TIMESTAMP");
        if (out.contains("'0x'")) { // first, while its CASTs are few (each kept one is read twice)
            out = SqlCalls.replace(out, "cast", GoogleSqlFunctions::hexCast);
        }
        out = SqlCalls.replace(out, "to_hex", a -> one(a, "encode(" + first(a) + ", 'hex')"));
        out = SqlCalls.replace(out, "md5", a -> one(a, "decode(md5(" + first(a) + "), 'hex')"));
        out = SqlCalls.replace(out, "byte_length", a -> one(a, "octet_length(" + first(a) + ")"));
        out =
                SqlCalls.replace(
                        out, "unix_date", a -> one(a, "((" + first(a) + ") - DATE '1970-01-01')"));
        out = SqlCalls.replace(out, "unix_micros", a -> one(a, micros(first(a))));
        out = SqlCalls.replace(out, "time_diff", GoogleSqlFunctions::diff);
        out = SqlCalls.replace(out, "datetime_diff", GoogleSqlFunctions::diff);
        out = SqlCalls.replace(out, "format", GoogleSqlFunctions::format);
        out = SqlCalls.replace(out, "format_timestamp", GoogleSqlFunctions::formatTimestamp);
        out =
                SqlCalls.replace(
                        out,
                        "split",
                        a ->
                                a.size() == 2
                                        ? "(string_to_array(" + a.get(0) + ", " + a.get(1) + "))"
                                        : null);
        Matcher m = SAFE_OFFSET.matcher(out);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, "[" + (Integer.parseInt(m.group(1)) + 1) + "]");
        }
        m.appendTail(b);
        return b.toString();
    }

    private static String first(List<String> args) {
        return args.get(0);
    }

    private static String one(List<String> args, String translated) {
        return args.size() == 1 ? translated : null;
    }

    private static String micros(String value) {
        return "CAST(extract(epoch FROM " + value + ") * 1000000 AS bigint)";
    }

    private static String hexCast(List<String> args) {
        Matcher m = args.size() == 1 ? HEX_CAST.matcher(args.get(0)) : null;
        if (m == null || !m.matches()) {
            return null;
        }
        return "('x' || lpad(" + m.group(1) + ", 16, '0'))::bit(64)::bigint";
    }

    private static String diff(List<String> args) {
        if (args.size() != 3 || !args.get(2).equalsIgnoreCase("MICROSECOND")) {
            return null;
        }
        return micros("((" + args.get(0) + ") - (" + args.get(1) + "))");
    }

    private static String format(List<String> args) {
        if (args.size() != 2 || !args.get(0).equals("'%.15g'")) {
            return null;
        }
        String x = "(" + args.get(1) + ")";
        return "CASE WHEN "
                + x
                + " = 0 OR "
                + x
                + " IN ('NaN', 'Infinity', '-Infinity') THEN lower(CAST("
                + x
                + " AS text)) ELSE CAST(CAST("
                + x
                + " AS numeric) AS text) END";
    }

    private static String formatTimestamp(List<String> args) {
        if (args.size() != 3
                || !args.get(0).equals("'%Y-%m-%d %H:%M:%S'")
                || !args.get(2).toUpperCase(Locale.ROOT).equals("'UTC'")) {
            return null;
        }
        return "to_char((" + args.get(1) + ") AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')";
    }
}
