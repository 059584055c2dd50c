package io.skippr.core.errors;

import java.util.stream.Stream;

/** A failure's chain of causes, which every "what went wrong" walks. */
public final class Causes {
    private Causes() {}

    /** {@code failure} and its causes, outermost first; ends at a cause that is its own cause. */
    public static Stream<Throwable> of(Throwable failure) {
        return Stream.iterate(
                failure, t -> t != null, t -> t.getCause() == t ? null : t.getCause());
    }

    /** The innermost cause: usually what the operating system or server said. */
    public static Throwable innermost(Throwable failure) {
        return of(failure).reduce((outer, inner) -> inner).orElse(failure);
    }
}
