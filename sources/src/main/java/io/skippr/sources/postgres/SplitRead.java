package io.skippr.sources.postgres;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * A reader tells the enumerator that it finished a split and the position it sent after its rows:
 * in a continuous run the enumerator plans the next reads of the table from it (late commits of the
 * transactions the split could not see), and polls the table again only after its splits finished.
 */
record SplitRead(String splitId, String stream, String position) implements SourceEvent {
    private static final long serialVersionUID = 1L;
}
