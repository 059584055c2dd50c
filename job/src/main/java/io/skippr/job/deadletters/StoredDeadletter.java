package io.skippr.job.deadletters;

import java.time.Instant;

/**
 * A deadletter as a deadletter sink keeps it, read back: the columns of {@code skippr_deadletters}
 * (see docs/deadletters.md) with its {@code _skippr_id}.
 *
 * @param id the deadletter's {@code _skippr_id}
 * @param sourcePosition where the record was read; for a record that failed again when it was
 *     replayed, {@code replay:<id of the deadletter replayed>|<where it was read>}
 */
public record StoredDeadletter(
        String id,
        String stream,
        String stage,
        String errorClass,
        String errorMessage,
        Instant failedAt,
        String sourcePosition,
        String payload,
        long dataRun) {

    /** What a replayed record that failed again has before its source position. */
    static final String REPLAY_PREFIX = "replay:";

    private static final int ID_LENGTH = 32;

    /** The source position of a record replayed from deadletter {@code replayedId} that failed. */
    static String replayPosition(String replayedId, String originalPosition) {
        return REPLAY_PREFIX + replayedId + "|" + originalPosition;
    }

    /** The id of the deadletter this one is a failed replay of, or null. */
    public String replayOf() {
        return isReplay()
                ? sourcePosition.substring(REPLAY_PREFIX.length(), prefixEnd() - 1)
                : null;
    }

    /** Where the record was read from its source, without a failed replay's prefix. */
    public String originalPosition() {
        return isReplay() ? sourcePosition.substring(prefixEnd()) : sourcePosition;
    }

    /** The reason a summary groups by: the error class and the destination's or Skippr's words. */
    public String reason() {
        return errorClass + ": " + errorMessage;
    }

    private boolean isReplay() {
        return sourcePosition != null
                && sourcePosition.startsWith(REPLAY_PREFIX)
                && sourcePosition.length() > prefixEnd() - 1
                && sourcePosition.charAt(prefixEnd() - 1) == '|';
    }

    private static int prefixEnd() {
        return REPLAY_PREFIX.length() + ID_LENGTH + 1;
    }
}
