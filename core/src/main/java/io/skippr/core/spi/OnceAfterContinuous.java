package io.skippr.core.spi;

import io.skippr.config.ConfigException;
import java.util.Locale;

/**
 * A {@code --once} run starts from the positions the last {@code --once} run committed; rows that
 * continuous runs committed since then lie beyond them, and an appending sink would get them again.
 * Until continuous runs commit positions a {@code --once} run can start from, such a run is refused
 * before it starts, with what to do instead, rather than load rows twice.
 */
public final class OnceAfterContinuous {
    private OnceAfterContinuous() {}

    /**
     * The refusal of a {@code --once} run of {@code pipeline} into {@code sink}, where continuous
     * runs committed {@code rows} rows after the last {@code --once} run.
     *
     * @param canMerge whether the sink can merge, so that write_mode merge would make it exact
     */
    public static ConfigException refusal(
            String pipeline, String sink, long rows, boolean canMerge) {
        return ConfigException.of(
                "skippr.yml",
                String.format(
                        Locale.ROOT,
                        "pipelines.%s: continuous runs committed %,d rows into %s after its last"
                                + " --once run; a --once run starts from that run's positions and"
                                + " would add those rows again. Run the pipeline continuously"
                                + " (skipprd sync --pipeline %s) to carry on from its"
                                + " checkpoint%s",
                        pipeline,
                        rows,
                        sink,
                        pipeline,
                        canMerge ? ", or write write_mode: merge to replace such rows" : ""));
    }
}
