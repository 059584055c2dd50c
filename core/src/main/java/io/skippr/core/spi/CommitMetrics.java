package io.skippr.core.spi;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * A committer's own metrics, beside Flink's {@code numCommittables*}: {@code skippr.commits}, the
 * commit calls that carried committables and settled every one of them (none failed, none is to be
 * retried), and {@code skippr.lastCommitTime}, when the last of them ended (milliseconds since the
 * epoch, 0 before the first). An idle pipeline commits nothing, so the time also stands still when
 * no rows arrive.
 */
public final class CommitMetrics<C> implements Committer<C> {
    private final Committer<C> committer;
    private final Counter commits;
    private volatile long lastCommitTime;

    private CommitMetrics(Committer<C> committer, MetricGroup group) {
        this.committer = committer;
        MetricGroup skippr = group.addGroup("skippr");
        this.commits = skippr.counter("commits");
        skippr.gauge("lastCommitTime", () -> lastCommitTime);
    }

    /** {@code committer}, with its metrics registered in {@code group}. */
    public static <C> Committer<C> around(Committer<C> committer, MetricGroup group) {
        return new CommitMetrics<>(committer, group);
    }

    @Override
    public void commit(Collection<CommitRequest<C>> requests)
            throws IOException, InterruptedException {
        List<Tracked<C>> tracked = new ArrayList<>(requests.size());
        for (CommitRequest<C> request : requests) {
            tracked.add(new Tracked<>(request));
        }
        committer.commit(new ArrayList<>(tracked));
        if (!tracked.isEmpty() && tracked.stream().noneMatch(t -> t.unsettled)) {
            commits.inc();
            lastCommitTime = System.currentTimeMillis();
        }
    }

    @Override
    public void close() throws Exception {
        committer.close();
    }

    /** A request that notes whether the committer failed it or put it off. */
    private static final class Tracked<C> implements CommitRequest<C> {
        private final CommitRequest<C> request;
        private boolean unsettled;

        Tracked(CommitRequest<C> request) {
            this.request = request;
        }

        @Override
        public C getCommittable() {
            return request.getCommittable();
        }

        @Override
        public int getNumberOfRetries() {
            return request.getNumberOfRetries();
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            unsettled = true;
            request.signalFailedWithKnownReason(t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            unsettled = true;
            request.signalFailedWithUnknownReason(t);
        }

        @Override
        public void retryLater() {
            unsettled = true;
            request.retryLater();
        }

        @Override
        public void updateAndRetryLater(C committable) {
            unsettled = true;
            request.updateAndRetryLater(committable);
        }

        @Override
        public void signalAlreadyCommitted() {
            request.signalAlreadyCommitted();
        }
    }
}
