package io.skippr.job;

import java.util.Map;
import java.util.TreeMap;

/**
 * Progress counters, kept as Flink accumulators named {@code skippr.<what>.<stream>} so that a
 * running job reports them with its heartbeats and a finished job in its result.
 */
public final class Progress {
    public static final String READ = "read";
    public static final String WRITTEN = "written";
    public static final String DEADLETTERED = "deadlettered";

    /** Counted by the load check apart from the normaliser's, and reported together. */
    static final String LOAD_DEADLETTERED = "load-deadlettered";

    private static final String PREFIX = "skippr.";

    private Progress() {}

    static String accumulator(String what, String stream) {
        return PREFIX + what + "." + stream;
    }

    /** Counts per stream and kind of count, from a job's accumulators. */
    public static Map<String, Map<String, Long>> byStream(Map<String, Object> accumulators) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        accumulators.forEach(
                (name, value) -> {
                    if (!name.startsWith(PREFIX) || !(value instanceof Number n)) {
                        return;
                    }
                    String rest = name.substring(PREFIX.length());
                    int dot = rest.indexOf('.');
                    if (dot > 0) {
                        String what = rest.substring(0, dot);
                        out.computeIfAbsent(rest.substring(dot + 1), s -> new TreeMap<>())
                                .merge(
                                        what.equals(LOAD_DEADLETTERED) ? DEADLETTERED : what,
                                        n.longValue(),
                                        Long::sum);
                    }
                });
        return out;
    }

    /** The total of one kind of count over all streams. */
    public static long total(Map<String, Map<String, Long>> byStream, String what) {
        return byStream.values().stream().mapToLong(m -> m.getOrDefault(what, 0L)).sum();
    }
}
