package io.skippr.job;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The execution environment pipeline tests run on (the test's MiniCluster): parallelism 2, no
 * generic types, three quick restarts, and 200 ms checkpoints when streaming.
 */
public final class TestFlink {
    private TestFlink() {}

    public static StreamExecutionEnvironment env(boolean streaming) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        if (streaming) {
            env.enableCheckpointing(200);
        }
        return env;
    }
}
