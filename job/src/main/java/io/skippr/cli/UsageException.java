package io.skippr.cli;

/** A command used wrongly, in a way the option parser cannot see; exit code 2. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
