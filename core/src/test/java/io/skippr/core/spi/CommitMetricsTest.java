package io.skippr.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

/** What a committer's metrics count: settled commits only. */
class CommitMetricsTest {
    /** A metric group that keeps what is registered in it, its subgroups included. */
    private static final class Kept extends UnregisteredMetricsGroup {
        Counter commits;
        Gauge<?> lastCommitTime;

        @Override
        public MetricGroup addGroup(String name) {
            return this;
        }

        @Override
        public Counter counter(String name) {
            return counter(name, new org.apache.flink.metrics.SimpleCounter());
        }

        @Override
        public <C extends Counter> C counter(String name, C counter) {
            commits = counter;
            return counter;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            lastCommitTime = gauge;
            return gauge;
        }
    }

    /** A request that records what the committer said of it. */
    private static final class Request implements Committer.CommitRequest<String> {
        final List<String> said = new ArrayList<>();

        @Override
        public String getCommittable() {
            return "c";
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            said.add("failed");
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            said.add("failed");
        }

        @Override
        public void retryLater() {
            said.add("retry");
        }

        @Override
        public void updateAndRetryLater(String committable) {
            said.add("retry");
        }

        @Override
        public void signalAlreadyCommitted() {
            said.add("already");
        }
    }

    private static Committer<String> committer(boolean retry) {
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<String>> requests) {
                for (CommitRequest<String> r : requests) {
                    if (retry) {
                        r.retryLater();
                    }
                }
            }

            @Override
            public void close() {}
        };
    }

    @Test
    void aCommitPutOffForARetryIsNotCountedAndTheRequestHearsOfIt() throws Exception {
        Kept group = new Kept();
        Committer<String> committer = CommitMetrics.around(committer(true), group);
        Request request = new Request();

        committer.commit(List.of(request));

        assertThat(request.said).containsExactly("retry");
        assertThat(group.commits.getCount()).isZero();
        assertThat(group.lastCommitTime.getValue()).isEqualTo(0L);
    }

    @Test
    void aSettledCommitIsCountedWithItsTimeAndAnEmptyOneIsNot() throws Exception {
        Kept group = new Kept();
        Committer<String> committer = CommitMetrics.around(committer(false), group);
        long before = System.currentTimeMillis();

        committer.commit(List.of());
        assertThat(group.commits.getCount()).isZero();
        committer.commit(List.of(new Request()));

        assertThat(group.commits.getCount()).isEqualTo(1);
        assertThat((Long) group.lastCommitTime.getValue())
                .isBetween(before, System.currentTimeMillis());
    }
}
