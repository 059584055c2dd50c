package io.skippr.sinks.redshift;

import io.skippr.sinks.sql.SqlCalls;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Redshift functions PostgreSQL lacks, as the twin ({@link RedshiftTwin}) translates them into
 * PostgreSQL expressions of the same result, in the forms Skippr sends (verify's checksums, the
 * loads table's default):
 *
 * <ul>
 *   <li>{@code STRTOL(s, 16)}: the BIGINT of up to 16 hex digits (no sign, no {@code 0x});
 *   <li>{@code DATEDIFF(day, a, b)} of dates and {@code DATEDIFF(microsecond, a, b)} of times or
 *       timestamps: {@code b - a} in those units (at the smallest unit a boundary count is the
 *       difference);
 *   <li>{@code FROM_VARBYTE(v, 'hex')}: PostgreSQL's {@code encode(v, 'hex')}, lower-case hex;
 *   <li>{@code SYSDATE}: the transaction's start in the session's time zone, {@code
 *       LOCALTIMESTAMP}.
 * </ul>
 *
 * Any other form of these functions is left as it is, so PostgreSQL refuses it.
 */
final class RedshiftFunctions {
    private static final Pattern SYSDATE =
            Pattern.compile("(?<![\"\\w])SYSDATE(?![\"\\w])", Pattern.CASE_INSENSITIVE);

    private RedshiftFunctions() {}

    static String translate(String sql) {
        String out = SYSDATE.matcher(sql).replaceAll("LOCALTIMESTAMP");
        out = calls(out, "strtol", RedshiftFunctions::strtol);
        out = calls(out, "datediff", RedshiftFunctions::datediff);
        return calls(out, "from_varbyte", RedshiftFunctions::fromVarbyte);
    }

    private static String strtol(List<String> args) {
        if (args.size() != 2 || !args.get(1).strip().equals("16")) {
            return null;
        }
        return "('x' || lpad(" + args.get(0) + ", 16, '0'))::bit(64)::bigint";
    }

    private static String datediff(List<String> args) {
        if (args.size() != 3) {
            return null;
        }
        String part = args.get(0).strip().toLowerCase(Locale.ROOT);
        String from = args.get(1);
        String to = args.get(2);
        return switch (part) {
            case "day" -> "((" + to + ")::date - (" + from + ")::date)";
            case "microsecond" ->
                    "CAST(extract(epoch FROM ((" + to + ") - (" + from + "))) * 1000000 AS bigint)";
            default -> null;
        };
    }

    private static String fromVarbyte(List<String> args) {
        if (args.size() != 2 || !args.get(1).strip().equalsIgnoreCase("'hex'")) {
            return null;
        }
        return "encode(" + args.get(0) + ", 'hex')";
    }

    private static String calls(
            String sql, String name, Function<List<String>, String> translation) {
        return SqlCalls.replace(sql, name, translation);
    }
}
