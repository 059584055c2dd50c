package io.skippr.sinks.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * Commits staged files by renaming them to their final names, once their checkpoint completed.
 * Idempotent: a final file without its temporary one was committed before.
 */
final class FileRenamer implements Committer<StagedFile> {
    @Override
    public void commit(Collection<CommitRequest<StagedFile>> requests) throws IOException {
        for (CommitRequest<StagedFile> request : requests) {
            StagedFile file = request.getCommittable();
            Path temp = Path.of(file.tempPath());
            Path target = Path.of(file.finalPath());
            if (Files.exists(temp)) {
                Files.createDirectories(target.getParent());
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } else if (Files.exists(target)) {
                request.signalAlreadyCommitted();
            } else {
                request.signalFailedWithKnownReason(new IOException("staged file " + temp
                        + " is gone and " + target + " was never written: the sink's folder was"
                        + " changed while the pipeline ran"));
            }
        }
    }

    @Override
    public void close() {}
}
