package io.skippr.core.spi;

import java.util.Map;

/**
 * Builds the sink of one data-sink kind. Registered in {@code
 * META-INF/services/io.skippr.core.spi.SinkFactory}, chosen by {@link #kind()}.
 */
public interface SinkFactory {
    /** The catalog kind, such as {@code LocalFile}. */
    String kind();

    SkipprSink create(SinkContext context);

    /**
     * The positions the sink of {@code context} has committed ({@link
     * SkipprSink#committedPositions}), read without preparing the sink: nothing is created, checked
     * for a run or cleaned up, so {@code skipprd deadletters list} can read them from a destination
     * it only looks at. Empty where the sink holds no commit (no marker table, no commit log yet)
     * and for kinds that commit no positions.
     */
    Map<String, String> committedPositions(SinkContext context);

    /**
     * Clears the positions the sink of {@code context} committed for its pipeline ({@link
     * #committedPositions}), so that the pipeline's next run reads its source from the start (for a
     * change data capture source: a fresh snapshot). What the sink loaded stays. Called by {@code
     * skipprd reset} only when {@link #committedPositions} is not empty, with no run of the
     * pipeline going on.
     *
     * @return what was cleared, in words, such as {@code "3 commit records in
     *     "schema"._skippr_commits"}
     * @throws UnsupportedOperationException for a kind that cannot clear them, its message saying
     *     what the user deletes by hand instead
     */
    default String forgetPositions(SinkContext context) {
        throw new UnsupportedOperationException(
                "a "
                        + kind()
                        + " data sink keeps them with what it wrote: delete what pipeline "
                        + context.pipeline()
                        + " wrote into data sink "
                        + context.entry()
                        + " by hand (its tables or files, and the commit records beside them)");
    }
}
