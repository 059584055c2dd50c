package io.skippr.sinks.glue;

/**
 * A stream's schema cannot be applied to its Glue table: a column would change type, or the table
 * is not the one the sink writes (another location, other partition keys). Not retried: the message
 * says what to change.
 */
public final class GlueSchemaConflictException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    GlueSchemaConflictException(String message) {
        super(message);
    }
}
