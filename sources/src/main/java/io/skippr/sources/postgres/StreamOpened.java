package io.skippr.sources.postgres;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * A reader opened the CDC stream split and waits, before its first transaction, for the
 * enumerator's {@link CdcTablesEvent}: tables added since the split was made must be known before
 * any of their changes passes.
 */
record StreamOpened() implements SourceEvent {
    private static final long serialVersionUID = 1L;
}
