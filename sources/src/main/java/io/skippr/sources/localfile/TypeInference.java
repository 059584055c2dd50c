package io.skippr.sources.localfile;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.core.record.DataType;
import io.skippr.core.record.DataType.Kind;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * The column type a sample of values suggests: the narrowest of BOOLEAN, INT64, FLOAT64, DATE,
 * TIMESTAMP_TZ, TIMESTAMP that every non-null value of the sample fits, else STRING (JSON for
 * nested JSON values). INT64 and FLOAT64 together make FLOAT64; any other mix makes STRING.
 */
final class TypeInference {
    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");
    private static final Pattern NUMBER =
            Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");

    private Kind kind;

    /** Adds a text value (a CSV field); null is ignored. */
    void addText(String value) {
        add(ofText(value));
    }

    /** Adds a JSON value; JSON null is ignored. */
    void addJson(JsonNode value) {
        add(ofJson(value));
    }

    private void add(Kind k) {
        kind = combine(kind, k);
    }

    /** The inferred type; STRING if no non-null value was seen. */
    DataType type() {
        return DataType.of(kind == null ? Kind.STRING : kind);
    }

    static Kind combine(Kind a, Kind b) {
        if (a == null) {
            return b;
        }
        if (b == null || a == b) {
            return a;
        }
        if ((a == Kind.INT64 && b == Kind.FLOAT64) || (a == Kind.FLOAT64 && b == Kind.INT64)) {
            return Kind.FLOAT64;
        }
        return Kind.STRING;
    }

    /**
     * The narrowest kind of one text value, or null for null. Integers with leading zeros (zip
     * codes, ids) stay STRING; an integer beyond INT64 is FLOAT64.
     */
    static Kind ofText(String s) {
        if (s == null) {
            return null;
        }
        if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
            return Kind.BOOLEAN;
        }
        if (INTEGER.matcher(s).matches()) {
            try {
                Long.parseLong(s);
                return Kind.INT64;
            } catch (NumberFormatException e) {
                return Kind.FLOAT64;
            }
        }
        if (NUMBER.matcher(s).matches()) {
            return Kind.FLOAT64;
        }
        Kind temporal = temporal(s);
        return temporal == null ? Kind.STRING : temporal;
    }

    /** DATE, TIMESTAMP_TZ or TIMESTAMP if {@code s} is such an ISO-8601 text, else null. */
    static Kind temporal(String s) {
        if (s.length() < 10 || s.charAt(4) != '-') {
            return null;
        }
        try {
            if (s.length() == 10) {
                if (DATE.matcher(s).matches()) {
                    LocalDate.parse(s, DateTimeFormatter.ISO_LOCAL_DATE);
                    return Kind.DATE;
                }
                return null;
            }
            if (s.charAt(10) != 'T') {
                return null;
            }
            char last = s.charAt(s.length() - 1);
            if (last == 'Z' || s.lastIndexOf('+') > 10 || s.lastIndexOf('-') > 10) {
                DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(s);
                return Kind.TIMESTAMP_TZ;
            }
            DateTimeFormatter.ISO_LOCAL_DATE_TIME.parse(s);
            return Kind.TIMESTAMP;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The kind of one JSON value, or null for JSON null: booleans BOOLEAN, integers INT64 (FLOAT64
     * beyond INT64), other numbers FLOAT64, objects and arrays JSON, strings DATE/TIMESTAMP_TZ/
     * TIMESTAMP when they are such ISO-8601 texts, else STRING.
     */
    static Kind ofJson(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isBoolean()) {
            return Kind.BOOLEAN;
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? Kind.INT64 : Kind.FLOAT64;
        }
        if (node.isNumber()) {
            return Kind.FLOAT64;
        }
        if (node.isContainerNode()) {
            return Kind.JSON;
        }
        Kind temporal = temporal(node.asText());
        return temporal == null ? Kind.STRING : temporal;
    }
}
