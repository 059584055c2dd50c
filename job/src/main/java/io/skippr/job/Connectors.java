package io.skippr.job;

import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SourceFactory;
import java.util.ServiceLoader;

/** Finds the source and sink factories of a kind through {@link ServiceLoader}. */
public final class Connectors {
    private Connectors() {}

    public static SourceFactory source(String kind) {
        for (SourceFactory factory : ServiceLoader.load(SourceFactory.class)) {
            if (factory.kind().equals(kind)) {
                return factory;
            }
        }
        throw new NotYetAvailableException(
                "the "
                        + kind
                        + " data source is declared but cannot"
                        + " run in this version of Skippr yet");
    }

    public static SinkFactory sink(String kind) {
        for (SinkFactory factory : ServiceLoader.load(SinkFactory.class)) {
            if (factory.kind().equals(kind)) {
                return factory;
            }
        }
        throw new NotYetAvailableException(
                "the "
                        + kind
                        + " data sink is declared but cannot"
                        + " run in this version of Skippr yet");
    }
}
