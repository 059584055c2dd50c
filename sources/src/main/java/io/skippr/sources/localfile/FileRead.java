package io.skippr.sources.localfile;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * A reader finished a split of a continuous run: the file is read up to {@code entry} (a {@link
 * FileEntry} line), so the enumerator can read what is appended after it.
 */
record FileRead(String path, String entry) implements SourceEvent {}
