package io.skippr.sinks.deadletters;

import io.skippr.core.spi.SinkContext;

/**
 * A sink factory's answer to where its kind, as a deadletter sink, keeps the deadletters: what
 * {@code skipprd deadletters list} and {@code replay} read. Every {@link
 * io.skippr.core.spi.SinkFactory} of this module implements it.
 */
public interface KeepsDeadletters {
    /**
     * Where the deadletter sink of {@code context} (its entry and settings) keeps them; connects to
     * nothing and creates nothing.
     */
    KeptDeadletters deadletters(SinkContext context);
}
