package io.skippr.job;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;

/** One kind of {@link Progress} count, per stream, registered with Flink on first use. */
final class StreamCounters {
    private final String what;
    private final RuntimeContext context;
    private final Map<String, LongCounter> counters = new HashMap<>();

    StreamCounters(String what, RuntimeContext context) {
        this.what = what;
        this.context = context;
    }

    void add(String stream, long n) {
        counters.computeIfAbsent(
                        stream,
                        s -> {
                            LongCounter c = new LongCounter();
                            context.addAccumulator(Progress.accumulator(what, s), c);
                            return c;
                        })
                .add(n);
    }
}
