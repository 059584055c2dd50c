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

    @Test
    void theGaugesOfAGroupReadTheNewestEnumeratorAfterAFailover() {
        java.util.Map<String, org.apache.flink.metrics.Gauge<?>> gauges = new java.util.HashMap<>();
        org.apache.flink.metrics.MetricGroup group =
                new org.apache.flink.metrics.groups.UnregisteredMetricsGroup() {
                    @Override
                    public org.apache.flink.metrics.MetricGroup addGroup(String key, String value) {
                        return this;
                    }

                    @Override
                    public org.apache.flink.metrics.MetricGroup addGroup(String name) {
                        return this;
                    }

                    @Override
                    public String getMetricIdentifier(String metricName) {
                        return "test-" + System.identityHashCode(gauges) + "." + metricName;
                    }

                    @Override
                    public <T, G extends org.apache.flink.metrics.Gauge<T>> G gauge(
                            String name, G gauge) {
                        gauges.putIfAbsent(name, gauge); // as Flink: a second one is refused
                        return gauge;
                    }
                };
        SourceLag first = new SourceLag(group, now::get);
        first.found("orders", "a.csv");
        now.addAndGet(1_000);
        assertThat(gauges.get("splitsBehind").getValue()).isEqualTo(1);

        SourceLag second = new SourceLag(group, now::get); // the enumerator after a failover
        second.show("orders");
        assertThat(gauges.get("splitsBehind").getValue()).isEqualTo(0);
        assertThat(gauges.get("sourceLagMillis").getValue()).isEqualTo(0L);
    }
}
