package io.skippr.sinks.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * Commits one subtask's staged files once their checkpoint completed: renames each to its final
 * name, then writes the commit record that lists them. Idempotent: a final file without its
 * temporary one was renamed before, and a record with the same key is not written twice.
 */
final class FileCommitter implements Committer<StagedFile> {
    private final CommitLog log;

    FileCommitter(CommitLog log) {
        this.log = log;
    }

    @Override
    public void commit(Collection<CommitRequest<StagedFile>> requests) throws IOException {
        List<StagedFile> committed = new ArrayList<>();
        for (CommitRequest<StagedFile> request : requests) {
            StagedFile file = request.getCommittable();
            if (file.isMarker() || rename(file, request)) {
                committed.add(file);
            }
        }
        if (!committed.isEmpty()) {
            log.record(CommitLog.keyOf(committed), committed);
        }
    }

    private static boolean rename(StagedFile file, CommitRequest<StagedFile> request)
            throws IOException {
        Path temp = Path.of(file.tempPath());
        Path target = Path.of(file.finalPath());
        if (Files.exists(temp)) {
            Files.createDirectories(target.getParent());
            Files.move(
                    temp,
                    target,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            return true;
        }
        if (Files.exists(target)) {
            request.signalAlreadyCommitted();
            return true;
        }
        request.signalFailedWithKnownReason(
                new IOException(
                        "staged file "
                                + temp
                                + " is gone and "
                                + target
                                + " was never written: the sink's folder was changed while the"
                                + " pipeline ran"));
        return false;
    }

    @Override
    public void close() {}
}
