package io.skippr.sources.localfile;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * A reader finished split {@code number} of a file: the file is read up to {@code entry} (a {@link
 * FileEntry} line), so in a continuous run the enumerator reads what is appended after it. Kept by
 * the reader until acknowledged ({@link io.skippr.sources.UnacknowledgedReports}).
 */
record FileRead(String path, long number, String entry) implements SourceEvent {
    private static final long serialVersionUID = 1L;
}
