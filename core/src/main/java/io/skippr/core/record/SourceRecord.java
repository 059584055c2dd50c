package io.skippr.core.record;

/**
 * What flows from a source to the sinks: a stream's schema (always before the rows that use it), a
 * row, a payload the source could not decode (which becomes a deadletter), or how far the source
 * has read a stream (after the rows it covers).
 */
public sealed interface SourceRecord permits SchemaChange, Row, Undecodable, ReadPosition {
    String stream();
}
