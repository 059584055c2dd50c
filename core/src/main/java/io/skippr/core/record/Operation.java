package io.skippr.core.record;

/** What a row does to the destination. Snapshots and appends insert. */
public enum Operation {
    INSERT,
    UPDATE,
    DELETE
}
