package io.skippr.sources.postgres.cdc;

/**
 * A column's value in a change: NULL, UNCHANGED (a TOASTed value the update did not touch, which
 * PostgreSQL does not send: the destination keeps what it has), or PRESENT with PostgreSQL's text
 * and the value as the Java class of the column's Skippr type. A value without a Skippr
 * representation (numeric NaN, infinite timestamps) is PRESENT with a null value and the {@code
 * problem}.
 */
public record ColumnValue(State state, String text, Object value, String problem) {
    public enum State {
        NULL,
        UNCHANGED,
        PRESENT
    }

    static final ColumnValue NULL = new ColumnValue(State.NULL, null, null, null);
    static final ColumnValue UNCHANGED = new ColumnValue(State.UNCHANGED, null, null, null);

    public boolean isUnchanged() {
        return state == State.UNCHANGED;
    }
}
