package io.skippr.job;

/** A connector kind that the catalog declares but this build cannot run. */
public final class NotYetAvailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotYetAvailableException(String message) {
        super(message);
    }
}
