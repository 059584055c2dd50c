package io.skippr.core.record;

import java.util.Objects;

/** A named, typed column of a stream. */
public record Column(String name, DataType type, boolean nullable) {
    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    public static Column of(String name, DataType type) {
        return new Column(name, type, true);
    }
}
