package io.skippr.core.record;

import java.util.List;

/**
 * A record that failed to transform or to load, with everything needed to find and replay it.
 *
 * @param stage {@code transform} or {@code load}
 * @param failedAtMicros when it failed, microseconds since the epoch
 * @param payload the original record as JSON, or the undecodable text as read
 */
public record Deadletter(
        String pipeline,
        String stream,
        String stage,
        String errorClass,
        String errorMessage,
        long failedAtMicros,
        String position,
        String payload) {

    public static final String TRANSFORM = "transform";
    public static final String LOAD = "load";

    /** The column of the data run a deadletter belongs to ({@link #toRow}). */
    public static final String DATA_RUN = "data_run";

    /** The stream deadletters are written as, in a deadletter sink. */
    public static final String STREAM = "skippr_deadletters";

    /** The schema deadletters have as rows of {@link #STREAM}. */
    public static final StreamSchema SCHEMA =
            new StreamSchema(
                    STREAM,
                    List.of(
                            Column.of("pipeline", DataType.STRING),
                            Column.of("stream", DataType.STRING),
                            Column.of("stage", DataType.STRING),
                            Column.of("error_class", DataType.STRING),
                            Column.of("error_message", DataType.STRING),
                            Column.of("failed_at", DataType.TIMESTAMP_TZ),
                            Column.of("source_position", DataType.STRING),
                            Column.of("payload", DataType.STRING),
                            Column.of(DATA_RUN, DataType.INT64)),
                    List.of());

    /**
     * This deadletter as a row of {@link #SCHEMA}, identified by its failure.
     *
     * @param dataRun the data sink's run the deadletter belongs to ({@code data_run}): a deadletter
     *     sink's bounded commit replaces the deadletters an earlier attempt of the same data run
     *     left, so a run that is repeated because its data did not commit adds none twice
     */
    public Row toRow(long dataRun) {
        Object[] values = {
            pipeline,
            stream,
            stage,
            errorClass,
            errorMessage,
            java.time.Instant.EPOCH.plus(failedAtMicros, java.time.temporal.ChronoUnit.MICROS),
            position,
            payload,
            dataRun
        };
        String id = SkipprId.of(STREAM, stream + "\u0000" + position + "\u0000" + stage);
        return new Row(
                STREAM, SCHEMA.version(), Operation.INSERT, values, position, id, failedAtMicros);
    }
}
