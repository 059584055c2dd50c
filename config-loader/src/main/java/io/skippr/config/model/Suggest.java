package io.skippr.config.model;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" suggestions for misspelt keys, kinds and references. */
public final class Suggest {
    private Suggest() {}

    /** The candidate closest to {@code input}, if one is close enough to be a likely typo. */
    public static Optional<String> closest(String input, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String lowered = input.toLowerCase(Locale.ROOT).replace('-', '_');
        for (String candidate : candidates) {
            int distance = distance(lowered, candidate.toLowerCase(Locale.ROOT).replace('-', '_'));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        int allowed = Math.max(2, input.length() / 3);
        return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
    }

    /** "; did you mean 'x'?" or empty. */
    public static String didYouMean(String input, Collection<String> candidates) {
        return closest(input, candidates).map(s -> "; did you mean '" + s + "'?").orElse("");
    }

    /**
     * Up to {@code limit} candidates that look like a typo of {@code input}, closest first; a
     * candidate that {@code input} extends or abbreviates counts as one edit away.
     */
    public static java.util.List<String> closeNames(
            String input, Collection<String> candidates, int limit) {
        String lowered = input.toLowerCase(Locale.ROOT);
        int allowed = Math.max(2, input.length() / 3);
        record Scored(String name, int distance) {}
        java.util.List<Scored> scored = new java.util.ArrayList<>();
        for (String candidate : candidates) {
            String other = candidate.toLowerCase(Locale.ROOT);
            int distance = distance(lowered, other);
            if (!lowered.isEmpty() && (other.startsWith(lowered) || lowered.startsWith(other))) {
                distance = Math.min(distance, 1);
            }
            if (distance <= allowed) {
                scored.add(new Scored(candidate, distance));
            }
        }
        return scored.stream()
                .sorted(
                        java.util.Comparator.comparingInt(Scored::distance)
                                .thenComparing(Scored::name))
                .limit(limit)
                .map(Scored::name)
                .toList();
    }

    /** The Levenshtein distance of two strings. */
    public static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] =
                        Math.min(
                                Math.min(current[j - 1] + 1, previous[j] + 1),
                                previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
