package io.skippr.sinks.files;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * Commits one subtask's staged files once their checkpoint completed: publishes each in the store,
 * then writes the commit record that lists them. Idempotent: the store publishes a file once, and a
 * record with the same key is not written twice.
 */
final class FileCommitter implements Committer<StagedFile> {
    private final FileStore store;
    private final CommitLog log;
    private final long deadletterRun;

    /**
     * @param deadletterRun for a deadletter sink, the data run its deadletters belong to, recorded
     *     with each commit; 0 for a data sink
     */
    FileCommitter(FileStore store, String pipeline, long deadletterRun) {
        this.store = store;
        this.log = new CommitLog(store, pipeline);
        this.deadletterRun = deadletterRun;
    }

    /**
     * Publishes every file, then records them. A store that fails (a lost connection, a refused
     * call, staged data that is gone) fails the commit, so Flink retries it from the checkpoint
     * rather than dropping the file; nothing is recorded until every file is published.
     */
    @Override
    public void commit(Collection<CommitRequest<StagedFile>> requests) throws IOException {
        List<StagedFile> committed = new ArrayList<>();
        for (CommitRequest<StagedFile> request : requests) {
            StagedFile file = request.getCommittable();
            if (!file.isMarker() && !store.publish(file.staged())) {
                request.signalAlreadyCommitted();
            }
            committed.add(file);
        }
        if (!committed.isEmpty()) {
            log.record(CommitLog.keyOf(committed), committed, deadletterRun);
        }
    }

    @Override
    public void close() throws IOException {
        store.close();
    }
}
