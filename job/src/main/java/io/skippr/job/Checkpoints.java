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
     * Moves the retained checkpoints and savepoints in {@code dirs} aside after a {@code --once}
     * run committed: they hold source positions older than the ones that run committed with its
     * data, and a continuous run resuming from them would load that run's rows again. The state
     * folder's own checkpoints go into {@code stateDir/superseded/<now>}; any other folder (such as
     * one on S3) is renamed beside itself, {@code <dir>.superseded-<now>}, after its metadata files
     * (so that a move cut short, which on S3 is a copy of every object, leaves nothing to restore).
     * Returns where they went; empty when there was nothing to move.
     */
    public static java.util.List<String> supersede(
            java.util.List<Path> dirs, java.nio.file.Path stateDir) throws IOException {
        long now = System.currentTimeMillis();
        java.util.List<String> moved = new java.util.ArrayList<>();
        Path own = new Path(StateDirs.checkpoints(stateDir).toUri());
        for (Path dir : dirs) {
            if (latest(dir).isEmpty()) {
                continue;
            }
            if (dir.equals(own)) {
                java.nio.file.Path aside =
                        stateDir.resolve("superseded").resolve(String.valueOf(now));
                java.nio.file.Files.createDirectories(aside.getParent());
                java.nio.file.Files.move(StateDirs.checkpoints(stateDir), aside);
                moved.add(aside.toString());
                continue;
            }
            FileSystem fs = dir.getFileSystem();
            for (Path folder : restorable(fs, dir, 2)) {
                Path metadata = new Path(folder, METADATA);
                if (!fs.rename(metadata, new Path(folder, METADATA + ".superseded"))) {
                    throw new IOException("cannot move " + metadata + " aside");
                }
            }
            Path aside = new Path(dir.getParent(), dir.getName() + ".superseded-" + now);
            if (!fs.rename(dir, aside)) {
                throw new IOException("cannot move " + dir + " to " + aside);
            }
            moved.add(aside.toString());
        }
        return moved;
    }

    /** The checkpoint and savepoint folders with metadata in {@code dir}, {@code depth} deep. */
    private static java.util.List<Path> restorable(FileSystem fs, Path dir, int depth)
            throws IOException {
        java.util.List<Path> found = new java.util.ArrayList<>();
        FileStatus[] children = fs.listStatus(dir);
        for (FileStatus child : children == null ? new FileStatus[0] : children) {
            if (!child.isDir()) {
                continue;
            }
            Path path = child.getPath();
            if (isRestorable(path)) {
                if (fs.exists(new Path(path, METADATA))) {
                    found.add(path);
                }
            } else if (depth > 1) {
                found.addAll(restorable(fs, path, depth - 1));
            }
        }
        return found;
    }

    private static boolean isRestorable(Path folder) {
        return folder.getName().startsWith("chk-") || folder.getName().startsWith("savepoint-");
    }

    /** The checkpoint or savepoint whose metadata was written last, of those looked at. */
    private static final class Newest {
        private Path folder;
        private long modified = Long.MIN_VALUE;

        void look(FileSystem fs, Path dir, int depth) throws IOException {
            FileStatus[] children;
            try {
                children = fs.listStatus(dir);
            } catch (java.io.FileNotFoundException e) {
                return; // removed while listed: a running job drops subsumed checkpoints
            }
            for (FileStatus child : children == null ? new FileStatus[0] : children) {
                if (!child.isDir()) {
                    continue;
                }
                Path path = child.getPath();
                if (isRestorable(path)) {
                    long time;
                    try {
                        time = fs.getFileStatus(new Path(path, METADATA)).getModificationTime();
                    } catch (java.io.FileNotFoundException e) {
                        continue; // not complete, or dropped since it was listed
                    }
                    if (folder == null || time > modified) {
                        folder = path;
                        modified = time;
                    }
                } else if (depth > 1) {
                    look(fs, path, depth - 1);
                }
            }
        }
    }
}
