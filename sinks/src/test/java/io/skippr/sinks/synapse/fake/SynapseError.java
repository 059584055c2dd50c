package io.skippr.sinks.synapse.fake;

/**
 * An error the fake sends as a TDS ERROR token: SQL Server's error number, state and severity
 * class, and its message. The numbers are SQL Server's own for the same failure (208 invalid object
 * name, 102 incorrect syntax, 574 a statement not allowed in a user transaction, …); {@link
 * #UNSUPPORTED} marks what the fake does not implement.
 */
final class SynapseError extends Exception {
    private static final long serialVersionUID = 1L;

    /** The fake's own number for a statement it does not implement (a user-defined range). */
    static final int UNSUPPORTED = 50001;

    final int number;
    final int state;
    final int severity;

    SynapseError(int number, int state, int severity, String message) {
        super(message);
        this.number = number;
        this.state = state;
        this.severity = severity;
    }

    SynapseError(int number, String message) {
        this(number, 1, 16, message);
    }

    static SynapseError syntax(String near) {
        return new SynapseError(102, "Incorrect syntax near '" + near + "'.");
    }

    static SynapseError keyword(String keyword) {
        return new SynapseError(156, "Incorrect syntax near the keyword '" + keyword + "'.");
    }

    static SynapseError unsupported(String what) {
        return new SynapseError(UNSUPPORTED, "The fake Synapse does not implement " + what + ".");
    }
}
