package io.skippr.cli.verify;

import io.skippr.sinks.files.JsonText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;

/** The reports of a verify run as a person reads them, or as one JSON document for monitors. */
final class VerifyReport {
    private static final String[] HEADER = {
        "stream",
        "source rows",
        "destination rows",
        "missing",
        "extra",
        "duplicated",
        "different",
        "not yet synced"
    };

    private VerifyReport() {}

    static boolean allMatch(List<StreamReport> reports) {
        return reports.stream().allMatch(StreamReport::matches);
    }

    static String table(String pipeline, List<StreamReport> reports) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (StreamReport r : reports) {
            rows.add(
                    r.verified()
                            ? new String[] {
                                r.stream(),
                                Long.toString(r.sourceRows()),
                                Long.toString(r.destinationRows()),
                                Long.toString(r.missing().count()),
                                Long.toString(r.extra().count()),
                                Long.toString(r.duplicated().count()),
                                Long.toString(r.different().count()),
                                r.notYetSynced() == null
                                        ? "unknown"
                                        : Long.toString(r.notYetSynced().count())
                            }
                            : new String[] {r.stream(), "-", "-", "-", "-", "-", "-", "-"});
        }
        StringBuilder out = new StringBuilder(columns(rows, i -> i > 0));
        for (StreamReport r : reports) {
            if (r.note() != null) {
                out.append(r.stream()).append(": ").append(r.note()).append('\n');
            }
            keys(out, r.stream(), "missing", r.missing());
            keys(out, r.stream(), "extra", r.extra());
            keys(out, r.stream(), "duplicated", r.duplicated());
            keys(out, r.stream(), "different", r.different());
            if (r.notYetSynced() != null) {
                keys(out, r.stream(), "not yet synced", r.notYetSynced());
            }
            loads(out, r);
        }
        long differ = reports.stream().filter(r -> r.verified() && !r.matches()).count();
        long unchecked = reports.stream().filter(r -> !r.verified()).count();
        long pending = reports.stream().mapToLong(StreamReport::notYetSyncedCount).sum();
        String notYet =
                pending == 0 ? "" : String.format(Locale.ROOT, "; %d rows not yet synced", pending);
        if (allMatch(reports)) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "All %d streams of pipeline %s match%s.%n",
                            reports.size(),
                            pipeline,
                            notYet));
        } else {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "Pipeline %s: %d of %d streams differ, %d not verified%s.%n",
                            pipeline,
                            differ,
                            reports.size(),
                            unchecked,
                            notYet));
        }
        return out.toString();
    }

    private static void keys(StringBuilder out, String stream, String kind, StreamReport.Kind k) {
        if (k.count() == 0) {
            return;
        }
        out.append(stream)
                .append(": ")
                .append(kind)
                .append(" keys: ")
                .append(k.first().stream().map(String::valueOf).collect(Collectors.joining(", ")))
                .append(
                        k.count() > k.first().size()
                                ? " and " + (k.count() - k.first().size()) + " more"
                                : "")
                .append('\n');
    }

    /** What {@code --since} found of the stream's loads: a line, and one per load that differs. */
    private static void loads(StringBuilder out, StreamReport r) {
        List<LoadCheck> checks = r.loads();
        if (checks.isEmpty()) {
            return;
        }
        long differ = checks.stream().filter(c -> !c.matches()).count();
        out.append(r.stream())
                .append(": ")
                .append(checks.size())
                .append(checks.size() == 1 ? " load" : " loads")
                .append(" checked (")
                .append(checks.get(0).load().id())
                .append(
                        checks.size() == 1
                                ? ""
                                : " to " + checks.get(checks.size() - 1).load().id())
                .append("): ")
                .append(differ == 0 ? "all match" : differ + " differ")
                .append('\n');
        for (LoadCheck c : checks) {
            Loads.Load load = c.load();
            String head =
                    r.stream()
                            + ": load "
                            + load.id()
                            + " ("
                            + load.mode()
                            + ", committed "
                            + load.committedAt()
                            + " UTC, cursor "
                            + load.load().from()
                            + " to "
                            + load.load().to()
                            + ")";
            if (!c.matches()) {
                out.append(head).append(" differs: ").append(c.problem()).append('\n');
            } else if (c.sourceChanged()) {
                out.append(head)
                        .append(": the source holds ")
                        .append(c.sourceRows())
                        .append(" rows in its cursor range now, the load loaded ")
                        .append(load.load().rows())
                        .append(" (rows changed since): compared with the source as it is now\n");
            }
        }
    }

    static String json(String pipeline, List<StreamReport> reports) {
        StringBuilder out = new StringBuilder();
        out.append("{\"pipeline\":").append(quote(pipeline));
        out.append(",\"match\":").append(allMatch(reports));
        out.append(",\"streams\":[");
        for (int i = 0; i < reports.size(); i++) {
            StreamReport r = reports.get(i);
            out.append(i == 0 ? "" : ",")
                    .append("{\"stream\":")
                    .append(quote(r.stream()))
                    .append(",\"verified\":")
                    .append(r.verified())
                    .append(",\"match\":")
                    .append(r.matches());
            if (r.verified()) {
                out.append(",\"source_rows\":")
                        .append(r.sourceRows())
                        .append(",\"destination_rows\":")
                        .append(r.destinationRows());
                kind(out, "missing", r.missing());
                kind(out, "extra", r.extra());
                kind(out, "duplicated", r.duplicated());
                kind(out, "different", r.different());
                if (r.notYetSynced() == null) {
                    out.append(",\"not_yet_synced\":null");
                } else {
                    kind(out, "not_yet_synced", r.notYetSynced());
                }
            }
            if (!r.loads().isEmpty()) {
                out.append(",\"loads\":[")
                        .append(
                                r.loads().stream()
                                        .map(VerifyReport::json)
                                        .collect(Collectors.joining(",")))
                        .append(']');
            }
            out.append(",\"note\":")
                    .append(r.note() == null ? "null" : quote(r.note()))
                    .append('}');
        }
        return out.append("]}\n").toString();
    }

    private static String json(LoadCheck c) {
        Loads.Load load = c.load();
        return "{\"load\":"
                + quote(load.id())
                + ",\"mode\":"
                + quote(load.mode())
                + ",\"committed_at\":"
                + quote(load.committedAt())
                + ",\"rows\":"
                + load.load().rows()
                + ",\"checksum\":"
                + quote(load.checksum())
                + ",\"from\":"
                + quote(load.load().from())
                + ",\"to\":"
                + quote(load.load().to())
                + ",\"source_rows\":"
                + c.sourceRows()
                + ",\"destination_rows\":"
                + c.destinationRows()
                + ",\"match\":"
                + c.matches()
                + ",\"problem\":"
                + (c.problem() == null ? "null" : quote(c.problem()))
                + "}";
    }

    private static void kind(StringBuilder out, String name, StreamReport.Kind k) {
        out.append(",\"")
                .append(name)
                .append("\":{\"count\":")
                .append(k.count())
                .append(",\"first_keys\":[")
                .append(k.first().stream().map(Key::json).collect(Collectors.joining(",")))
                .append("]}");
    }

    /** A JSON string, escaped as the file sinks escape theirs; "null" for null. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder();
        try {
            JsonText.writeString(out, s);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // a StringBuilder does not throw
        }
        return out.toString();
    }

    /**
     * {@code rows} (the header first) as columns two spaces apart, each as wide as its widest cell,
     * the cells of the columns {@code right} says right-aligned (the header's too), lines stripped
     * of trailing spaces.
     */
    static String columns(List<String[]> rows, IntPredicate right) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == 0 ? "" : "  ")
                        .append(
                                right.test(i)
                                        ? padLeft(row[i], widths[i])
                                        : pad(row[i], widths[i]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width) {
        return " ".repeat(width - s.length()) + s;
    }
}
