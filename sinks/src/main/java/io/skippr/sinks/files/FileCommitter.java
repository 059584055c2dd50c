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

    FileCommitter(FileStore store) {
        this.store = store;
        this.log = new CommitLog(store);
    }

    @Override
    public void commit(Collection<CommitRequest<StagedFile>> requests) throws IOException {
        List<StagedFile> committed = new ArrayList<>();
        for (CommitRequest<StagedFile> request : requests) {
            StagedFile file = request.getCommittable();
            if (file.isMarker() || publish(file, request)) {
                committed.add(file);
            }
        }
        if (!committed.isEmpty()) {
            log.record(CommitLog.keyOf(committed), committed);
        }
    }

    private boolean publish(StagedFile file, CommitRequest<StagedFile> request) {
        try {
            if (!store.publish(file.staged())) {
                request.signalAlreadyCommitted();
            }
            return true;
        } catch (IOException e) {
            request.signalFailedWithKnownReason(e);
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        store.close();
    }
}
