package io.skippr.core.errors;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** A failure's chain of causes, which every "what went wrong" walks. */
public final class Causes {
    private Causes() {}

    /** {@code failure} and its causes, outermost first, each once even if the chain loops. */
    public static Stream<Throwable> of(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain.stream();
    }

    /** The innermost cause: usually what the operating system or server said. */
    public static Throwable innermost(Throwable failure) {
        return of(failure).reduce((outer, inner) -> inner).orElse(failure);
    }
}
