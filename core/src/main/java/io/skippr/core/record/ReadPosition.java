package io.skippr.core.record;

/**
 * How far a source has read a stream, sent after the rows it covers: a sink commits it with those
 * rows, in a {@code --once} run's all-or-nothing unit, and the next run starts from it. Its text is
 * {@link ReadPositions}'s: a set of the source's own entries, so the positions of one run's splits
 * combine by union whatever sink subtask they reach.
 */
public record ReadPosition(String stream, String position) implements SourceRecord {}
