package io.skippr.job;

/** A value that does not fit its column's type; the row becomes a deadletter. */
final class CoercionException extends Exception {
    private static final long serialVersionUID = 1L;

    CoercionException(String message) {
        super(message);
    }
}
