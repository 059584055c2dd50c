package io.skippr.job.deadletters;

/**
 * A pipeline whose deadletters cannot be read back: it has no deadletter sink, or one of a kind
 * that keeps nothing to read (Stdout) or hands its deadletters to others (AMQP). A user's setup,
 * not a failure: {@code skipprd} exits with code 2.
 */
public final class CannotReadDeadletters extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CannotReadDeadletters(String message) {
        super(message);
    }
}
