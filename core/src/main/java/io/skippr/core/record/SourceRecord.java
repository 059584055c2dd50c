package io.skippr.core.record;

/**
 * What flows from a source to the sinks: a stream's schema (always before the rows that use it), a
 * row, or a payload the source could not decode (which becomes a deadletter).
 */
public sealed interface SourceRecord permits SchemaChange, Row, Undecodable {
    String stream();
}
