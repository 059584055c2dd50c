package io.skippr.sinks.sql;

import io.skippr.core.spi.FailPoint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A bounded run's one commit (parallelism 1), in place of Flink's global committer: gathers every
 * subtask's committables, and once its input ended commits them through {@link SqlCommitter} with
 * {@link SqlCommitter.Scope#RUN}, retrying what the committer asks to retry, then sends one token:
 * the run committed. Flink's global committer sends nothing, so nothing could wait for it.
 *
 * <p>It keeps no state: batch mode has no checkpoints, and a failed attempt is run again from its
 * blocking input; the marker table makes the repeated commit a no-op.
 */
final class SqlRunCommit extends AbstractStreamOperator<Long>
        implements OneInputStreamOperator<CommittableMessage<SqlCommittable>, Long>,
                BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /**
     * How often a commit the database refused for a transient reason is tried again, after 0.2,
     * 0.4, 0.8 ... s (at most 5 s) each.
     */
    static final int RETRIES = 10;

    private final SqlSinkSettings settings;
    private final FailPoint failPoint;
    private transient List<SqlCommittable> committables;

    SqlRunCommit(SqlSinkSettings settings, FailPoint failPoint) {
        this.settings = settings;
        this.failPoint = failPoint;
    }

    @Override
    public void open() throws Exception {
        super.open();
        committables = new ArrayList<>();
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<SqlCommittable>> element) {
        if (element.getValue() instanceof CommittableWithLineage<SqlCommittable> c) {
            committables.add(c.getCommittable());
        }
    }

    @Override
    public void endInput() throws Exception {
        if (!committables.isEmpty()) {
            try (Committer<SqlCommittable> committer =
                    failPoint.around(
                            new SqlCommitter(settings, SqlCommitter.Scope.RUN, failPoint))) {
                commit(committer);
            }
        }
        output.collect(new StreamRecord<>(1L));
    }

    private void commit(Committer<SqlCommittable> committer)
            throws IOException, InterruptedException {
        List<Request> pending = new ArrayList<>();
        committables.forEach(c -> pending.add(new Request(c)));
        for (int attempt = 0; !pending.isEmpty(); attempt++) {
            if (attempt > RETRIES) {
                throw new IOException(
                        "Committing bounded run "
                                + settings.run()
                                + " of pipeline "
                                + settings.pipeline()
                                + " failed "
                                + attempt
                                + " times for a transient reason; giving up");
            }
            if (attempt > 0) { // a deadlock or a lost connection: give it a moment
                Thread.sleep(Math.min(5_000L, 100L << attempt));
            }
            pending.forEach(r -> r.retry = false);
            committer.commit(new ArrayList<>(pending));
            pending.removeIf(r -> !r.retry);
        }
    }

    /** One committable's commit request: done unless the committer asks to retry it. */
    private static final class Request implements Committer.CommitRequest<SqlCommittable> {
        private SqlCommittable committable;
        private int retries;
        boolean retry;

        Request(SqlCommittable committable) {
            this.committable = committable;
        }

        @Override
        public SqlCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return retries;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            throw new SqlSinkException(t.getMessage(), t);
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            throw new SqlSinkException(t.getMessage(), t);
        }

        @Override
        public void retryLater() {
            retry = true;
            retries++;
        }

        @Override
        public void updateAndRetryLater(SqlCommittable committable) {
            this.committable = committable;
            retryLater();
        }

        @Override
        public void signalAlreadyCommitted() {}
    }
}
