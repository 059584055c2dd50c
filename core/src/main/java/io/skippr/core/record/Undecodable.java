package io.skippr.core.record;

/**
 * A payload the source read but could not decode (bad JSON, a CSV line with too many fields): the
 * normalise step turns it into a deadletter, nothing is dropped silently.
 */
public record Undecodable(String stream, String payload, String error, String position)
        implements SourceRecord {}
