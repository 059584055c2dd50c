package io.skippr.config;

import java.util.Objects;

/** A resolved credential. It prints as asterisks; only {@link #reveal()} gives the value. */
public final class Secret implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final String value;

    public Secret(String value) {
        this.value = Objects.requireNonNull(value);
    }

    /** The value, for handing to a client library; never log it or write it anywhere. */
    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return "******";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}
