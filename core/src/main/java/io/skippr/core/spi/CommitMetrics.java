package io.skippr.core.spi;

import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * A committer's own metrics, beside Flink's {@code numCommittables*}: {@code skippr.commits}, the
 * commit calls that ended without an error and carried committables, and {@code
 * skippr.lastCommitTime}, when the last of them ended (milliseconds since the epoch, 0 before the
 * first), so that an alert can fire when a pipeline stops committing.
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
        committer.commit(requests);
        if (!requests.isEmpty()) {
            commits.inc();
            lastCommitTime = System.currentTimeMillis();
        }
    }

    @Override
    public void close() throws Exception {
        committer.close();
    }
}
