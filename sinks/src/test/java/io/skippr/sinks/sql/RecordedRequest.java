package io.skippr.sinks.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * A commit request that records what the committer signalled: {@code committed} (nothing
 * signalled), {@code already committed}, {@code retry} or {@code failed: <message>}.
 */
public final class RecordedRequest implements Committer.CommitRequest<SqlCommittable> {
    private final SqlCommittable committable;
    private volatile String signal = "committed";

    public RecordedRequest(SqlCommittable committable) {
        this.committable = committable;
    }

    /** A request for each of {@code committables}. */
    public static List<RecordedRequest> of(Collection<SqlCommittable> committables) {
        return committables.stream().map(RecordedRequest::new).toList();
    }

    /** Commits {@code all} through {@code committer}; returns the distinct signals. */
    public static List<String> commit(
            Committer<SqlCommittable> committer, Collection<SqlCommittable> all) throws Exception {
        List<RecordedRequest> requests = all.stream().map(RecordedRequest::new).toList();
        committer.commit(new ArrayList<>(requests));
        return requests.stream().map(r -> r.signal).distinct().toList();
    }

    @Override
    public SqlCommittable getCommittable() {
        return committable;
    }

    @Override
    public int getNumberOfRetries() {
        return 0;
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
        signal = "failed: " + t.getMessage();
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
        throw new IllegalStateException(t);
    }

    @Override
    public void retryLater() {
        signal = "retry";
    }

    @Override
    public void updateAndRetryLater(SqlCommittable committable) {
        signal = "retry";
    }

    @Override
    public void signalAlreadyCommitted() {
        signal = "already committed";
    }
}
