package io.skippr.sinks.sql;

/**
 * What a commit does about a target column whose type differs from the stream's: keep it (it holds
 * every value of the new type), widen it, or refuse.
 *
 * @param type the column type to widen to ({@link Action#WIDEN})
 * @param reason why the change is refused ({@link Action#REFUSE})
 */
public record TypeChange(Action action, String type, String reason) {
    /** The three outcomes of the schema evolution policy. */
    public enum Action {
        KEEP,
        WIDEN,
        REFUSE
    }

    public static final TypeChange KEEP = new TypeChange(Action.KEEP, null, null);

    public static TypeChange widen(String type) {
        return new TypeChange(Action.WIDEN, type, null);
    }

    public static TypeChange refuse(String reason) {
        return new TypeChange(Action.REFUSE, null, reason);
    }
}
