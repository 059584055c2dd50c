package io.skippr.cli;

import io.skippr.job.Progress;
import io.skippr.job.ReplicationLagGauges;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The live progress line of {@code skipprd sync}: counts, rate and per-stream detail. */
final class ProgressLine {
    private final PrintWriter err;
    private final boolean live;
    private final long started = System.nanoTime();
    private boolean drawn;

    ProgressLine(PrintWriter err, boolean live) {
        this.err = err;
        this.live = live;
    }

    synchronized void update(Map<String, Map<String, Long>> counters) {
        update(counters, Optional.empty());
    }

    /**
     * The line with, for a change-data-capture source, its lag: the WAL its slot has not confirmed
     * and the seconds behind the server's commits ({@code lag 12.5 MiB 3 s}; {@code ?} for a value
     * not read yet).
     */
    synchronized void update(
            Map<String, Map<String, Long>> counters, Optional<ReplicationLagGauges.Lag> lag) {
        if (!live || counters.isEmpty()) {
            return;
        }
        double seconds = Math.max((System.nanoTime() - started) / 1e9, 0.001);
        long read = Progress.total(counters, Progress.READ);
        String streams =
                counters.entrySet().stream()
                        .limit(4)
                        .map(
                                e ->
                                        e.getKey()
                                                + " "
                                                + e.getValue().getOrDefault(Progress.WRITTEN, 0L))
                        .collect(Collectors.joining(", "));
        err.print(
                String.format(
                        "\rread %,d  written %,d  deadlettered %,d  %,.0f rec/s%s  [%s]\u001b[K",
                        read,
                        Progress.total(counters, Progress.WRITTEN),
                        Progress.total(counters, Progress.DEADLETTERED),
                        read / seconds,
                        lag.map(ProgressLine::lag).orElse(""),
                        streams));
        err.flush();
        drawn = true;
    }

    /** {@code " lag 12.5 MiB 3 s"}: a value below 0 (not read yet) as {@code ?}. */
    static String lag(ReplicationLagGauges.Lag lag) {
        return "  lag "
                + (lag.bytes() < 0
                        ? "?"
                        : String.format(Locale.ROOT, "%.1f MiB", lag.bytes() / (1024.0 * 1024.0)))
                + " "
                + (lag.seconds() < 0 ? "?" : lag.seconds() + " s");
    }

    /**
     * A line of its own (a warning starts with "warning: "); the progress line is drawn again at
     * the next update.
     */
    synchronized void say(String line) {
        if (drawn) {
            err.print("\r\u001b[K");
            drawn = false;
        }
        err.println(line);
        err.flush();
    }

    synchronized void finish() {
        if (drawn) {
            err.println();
        }
    }
}
