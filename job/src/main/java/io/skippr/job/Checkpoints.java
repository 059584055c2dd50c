package io.skippr.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Finds a pipeline's latest retained checkpoint, to resume a continuous run from it, on any file
 * system Flink has (a local folder, or {@code s3://} through the s3-fs-hadoop plugin).
 */
public final class Checkpoints {
    private static final String METADATA = "_metadata";

    private Checkpoints() {}

    /**
     * The newest {@code chk-N} folder with complete metadata in {@code dir} or one level below it
     * ({@code dir/<job id>/chk-N}), if any. A folder that cannot be read is an error, not "no
     * checkpoint": starting over would load rows again.
     */
    public static Optional<Path> latest(Path dir) {
        return newest(java.util.List.of(dir));
    }

    /**
     * The newest complete checkpoint ({@code chk-N}) or savepoint ({@code savepoint-…}) in any of
     * {@code dirs} or one level below them, by when its metadata was written: a job stopped with a
     * savepoint drops its checkpoints, and checkpoints of earlier jobs may remain.
     */
    public static Optional<Path> newest(java.util.List<Path> dirs) {
        Newest newest = new Newest();
        for (Path dir : dirs) {
            try {
                FileSystem fs = dir.getFileSystem();
                if (fs.exists(dir)) {
                    newest.look(fs, dir, 2);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot read the checkpoint folder " + dir + ": " + e.getMessage(), e);
            }
        }
        return Optional.ofNullable(newest.folder);
    }

    /** {@link #latest(Path)} of a local folder. */
    public static Optional<java.nio.file.Path> latest(java.nio.file.Path dir) {
        return latest(new Path(dir.toUri())).map(p -> java.nio.file.Path.of(p.toUri()));
    }

    /**
     * Moves the retained checkpoints in {@code dir} aside after a {@code --once} run committed:
     * they hold source positions older than the ones that run committed with its data, and a
     * continuous run resuming from them would load that run's rows again. A local folder goes into
     * {@code stateDir/superseded/<now>}; a folder elsewhere (such as S3) is renamed beside itself,
     * {@code <dir>.superseded-<now>}. Returns where they went, or empty when there were none.
     */
    public static Optional<String> supersede(Path dir, java.nio.file.Path stateDir)
            throws IOException {
        if (latest(dir).isEmpty()) {
            return Optional.empty();
        }
        long now = System.currentTimeMillis();
        if (dir.getFileSystem().isDistributedFS()) {
            Path aside = new Path(dir.getParent(), dir.getName() + ".superseded-" + now);
            if (!dir.getFileSystem().rename(dir, aside)) {
                throw new IOException("cannot move " + dir + " to " + aside);
            }
            return Optional.of(aside.toString());
        }
        java.nio.file.Path aside = stateDir.resolve("superseded").resolve(String.valueOf(now));
        java.nio.file.Files.createDirectories(aside.getParent());
        java.nio.file.Files.move(java.nio.file.Path.of(dir.toUri()), aside);
        return Optional.of(aside.toString());
    }

    /** The checkpoint or savepoint whose metadata was written last, of those looked at. */
    private static final class Newest {
        private Path folder;
        private long modified = Long.MIN_VALUE;

        void look(FileSystem fs, Path dir, int depth) throws IOException {
            FileStatus[] children = fs.listStatus(dir);
            for (FileStatus child : children == null ? new FileStatus[0] : children) {
                if (!child.isDir()) {
                    continue;
                }
                Path path = child.getPath();
                if (path.getName().startsWith("chk-") || path.getName().startsWith("savepoint-")) {
                    Path metadata = new Path(path, METADATA);
                    if (fs.exists(metadata)) {
                        long time = fs.getFileStatus(metadata).getModificationTime();
                        if (folder == null || time > modified) {
                            folder = path;
                            modified = time;
                        }
                    }
                } else if (depth > 1) {
                    look(fs, path, depth - 1);
                }
            }
        }
    }
}
