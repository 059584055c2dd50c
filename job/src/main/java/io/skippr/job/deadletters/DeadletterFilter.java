package io.skippr.job.deadletters;

import java.time.Instant;
import java.util.Locale;
import java.util.Set;

/**
 * Which deadletters a {@code list} or {@code replay} takes.
 *
 * @param stage {@code transform}, {@code load}, or null for both
 * @param reason text the error class or message must contain (any case), or null for all
 * @param since the earliest {@code failed_at} taken, or null for all
 * @param includeReplayed whether deadletters already replayed are taken too
 */
public record DeadletterFilter(
        String stage, String reason, Instant since, boolean includeReplayed) {
    /** Every deadletter not replayed yet. */
    public static final DeadletterFilter PENDING = new DeadletterFilter(null, null, null, false);

    public DeadletterFilter {
        if (stage != null && !stage.equals("transform") && !stage.equals("load")) {
            throw new IllegalArgumentException("stage '" + stage + "': expected transform or load");
        }
    }

    /** Whether {@code d} is taken, given the ids of the deadletters replayed so far. */
    public boolean takes(StoredDeadletter d, Set<String> replayed) {
        if (!includeReplayed && replayed.contains(d.id())) {
            return false;
        }
        if (stage != null && !stage.equals(d.stage())) {
            return false;
        }
        if (since != null && d.failedAt() != null && d.failedAt().isBefore(since)) {
            return false;
        }
        return reason == null
                || d.reason().toLowerCase(Locale.ROOT).contains(reason.toLowerCase(Locale.ROOT));
    }
}
