package io.skippr.sources;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

class SourceLagTest {
    private final AtomicLong now = new AtomicLong(1_000);
    private final SourceLag lag =
            new SourceLag(UnregisteredMetricsGroup.createSplitEnumeratorMetricGroup(), now::get);

    @Test
    void theLagIsTheAgeOfTheOldestSplitFoundAndNotYetRead() {
        lag.show("orders");
        assertThat(lag.lagMillis("orders")).isZero();
        lag.found("orders", "a.csv");
        now.addAndGet(400);
        lag.found("orders", "b.csv");
        now.addAndGet(100);
        assertThat(lag.lagMillis("orders")).isEqualTo(500);
        assertThat(lag.behind("orders")).isEqualTo(2);

        lag.read("orders", "a.csv");
        assertThat(lag.lagMillis("orders")).isEqualTo(100);
        lag.read("orders", "b.csv");
        assertThat(lag.lagMillis("orders")).isZero();
        assertThat(lag.behind("orders")).isZero();
    }

    @Test
    void aSplitGivenBackKeepsTheTimeItWasFirstFound() {
        lag.found("orders", "a.csv");
        now.addAndGet(300);
        lag.found("orders", "a.csv"); // a failed reader gave it back
        assertThat(lag.lagMillis("orders")).isEqualTo(300);
        assertThat(lag.lagMillis("items")).as("a stream never seen").isZero();
    }
}
