package io.skippr.sources.postgres;

import org.apache.flink.api.connector.source.SourceEvent;

/** A reader read a CDC snapshot split to its end. */
record SnapshotSplitRead(String splitId) implements SourceEvent {}
