package io.skippr.sinks.files;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * The global committer (parallelism 1): after every subtask's files of a checkpoint were renamed,
 * writes one commit record listing them with the cursor positions they reach.
 */
final class CommitRecorder implements Committer<StagedFile> {
    private final FileSinkSettings settings;

    CommitRecorder(FileSinkSettings settings) {
        this.settings = settings;
    }

    @Override
    public void commit(Collection<CommitRequest<StagedFile>> requests) throws IOException {
        List<StagedFile> files = new ArrayList<>();
        requests.forEach(r -> files.add(r.getCommittable()));
        if (!files.isEmpty()) {
            settings.commitLog().record(CommitLog.keyOf(files), files);
        }
    }

    @Override
    public void close() {}
}
