package io.skippr.core.record;

/**
 * A stream's position as a sink commits it with its data: the highest cursor value of the rows, as
 * text, with the cursor column's type kind; or, of type {@link #READ}, the read position the source
 * sent ({@link ReadPositions}).
 */
public record CommittedPosition(String type, String value) {
    /** The type of a position the source sent, rather than a row's cursor value. */
    public static final String READ = "READ";

    public static CommittedPosition read(String position) {
        return new CommittedPosition(READ, position);
    }

    /**
     * Two positions of one stream and run combined: read positions by union, a read position over a
     * row's cursor value (the source knows how far it read), cursor values by the larger.
     */
    public CommittedPosition combine(CommittedPosition other) {
        if (other == null) {
            return this;
        }
        boolean read = READ.equals(type);
        if (read && READ.equals(other.type)) {
            return read(ReadPositions.union(value, other.value));
        }
        if (read || READ.equals(other.type)) {
            return read ? this : other;
        }
        DataType t = DataType.of(DataType.Kind.valueOf(type));
        Object a = CursorValues.parse(t, value);
        Object b = CursorValues.parse(t, other.value);
        return CursorValues.max(a, b) == a ? this : other;
    }
}
