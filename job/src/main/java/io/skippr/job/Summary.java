package io.skippr.job;

import java.util.Map;

/** One-line and per-stream renderings of a run's counters. */
public final class Summary {
    private Summary() {}

    public static String line(Map<String, Map<String, Long>> counters) {
        return String.format(
                "%d streams, %d records read, %d written, %d deadlettered",
                counters.size(),
                Progress.total(counters, Progress.READ),
                Progress.total(counters, Progress.WRITTEN),
                Progress.total(counters, Progress.DEADLETTERED));
    }

    /** A table of counts per stream, for the end of a run. */
    public static String table(Map<String, Map<String, Long>> counters) {
        int width =
                Math.max(6, counters.keySet().stream().mapToInt(String::length).max().orElse(6));
        StringBuilder out =
                new StringBuilder(
                        String.format(
                                "%-" + width + "s %12s %12s %14s%n",
                                "stream",
                                "read",
                                "written",
                                "deadlettered"));
        counters.forEach(
                (stream, c) ->
                        out.append(
                                String.format(
                                        "%-" + width + "s %12d %12d %14d%n",
                                        stream,
                                        c.getOrDefault(Progress.READ, 0L),
                                        c.getOrDefault(Progress.WRITTEN, 0L),
                                        c.getOrDefault(Progress.DEADLETTERED, 0L))));
        return out.toString();
    }
}
