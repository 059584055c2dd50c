package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A row's primary key as both sides agree on it: each column's canonical text ({@link
 * Canonical#value}), which identifies the key across databases, and its text as the side printed it
 * (the form a report shows and a range bound is written in).
 *
 * @param canonical the canonical text of each key column; null for a NULL in a destination's key
 * @param shown each column as the side prints it
 * @param kinds each column's type
 */
record Key(List<String> canonical, List<String> shown, List<DataType.Kind> kinds) {

    /** The order of the key in both databases: numbers by value, texts by their UTF-8 bytes. */
    static final Comparator<Key> ORDER = Key::compare;

    private static int compare(Key a, Key b) {
        for (int i = 0; i < a.canonical.size(); i++) {
            int c = compareColumn(a.kinds.get(i), a.canonical.get(i), b.canonical.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int compareColumn(DataType.Kind kind, String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1; // NULLs last, as both databases sort
        }
        if (numeric(kind)) {
            return new BigDecimal(a).compareTo(new BigDecimal(b));
        }
        return compareBytes(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static int compareBytes(byte[] a, byte[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            int c = Integer.compare(a[i] & 0xff, b[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length, b.length);
    }

    /** Whether the canonical text of {@code kind} is a decimal number (see {@link Canonical}). */
    static boolean numeric(DataType.Kind kind) {
        return switch (kind) {
            case INT16, INT32, INT64, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMP_TZ -> true;
            default -> false;
        };
    }

    /** Whether a column of {@code kind} can key the ranges verify compares. */
    static boolean orderable(DataType.Kind kind) {
        return numeric(kind) || kind == DataType.Kind.STRING || kind == DataType.Kind.UUID;
    }

    /** As a report names it: the value, or {@code (a, b)} for a composite key. */
    @Override
    public String toString() {
        String joined =
                shown.stream().map(v -> v == null ? "NULL" : v).collect(Collectors.joining(", "));
        return shown.size() == 1 ? joined : "(" + joined + ")";
    }

    /** As JSON: an integer key as a number, any other as a string, a composite key as an array. */
    String json() {
        if (shown.size() == 1) {
            return jsonValue(0);
        }
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < shown.size(); i++) {
            out.append(i == 0 ? "" : ",").append(jsonValue(i));
        }
        return out.append(']').toString();
    }

    private String jsonValue(int i) {
        String v = shown.get(i);
        if (v == null) {
            return "null";
        }
        return switch (kinds.get(i)) {
            case INT16, INT32, INT64 -> v;
            default -> VerifyReport.quote(v);
        };
    }
}
