package io.skippr.cli.verify;

import io.skippr.cli.UsageException;
import io.skippr.core.naming.Names;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinkException;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.LocalFileStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A file sink's committed files of its format, per stream, as local files: exactly the files the
 * pipeline's commit log lists as committed (read once, at construction), under the stream's folder,
 * compressed or not. A local folder's files are used where they are; a remote store's are
 * downloaded through the sink's own client, one file at a time streamed to disk, into a temporary
 * folder that holds one stream's copies at a time and is removed at {@link #close}. A file the log
 * lists that the store lacks is left out with a line saying so: its rows count as missing. A store
 * that cannot be read is a configuration error (exit 2) naming the sink and the store's own words.
 */
final class CommittedFiles implements AutoCloseable {
    private static final long PROGRESS_NANOS = 5_000_000_000L;

    private final FileStore store;
    private final String sink;
    private final FileFormat format;
    private final List<String> committed;
    private final Consumer<String> progress;

    /** Where a remote store's files are downloaded; null until the first download. */
    private Path downloads;

    /** The stream whose files {@link #files} are, or null. */
    private String filesOf;

    private List<Path> files;

    /**
     * @param sink the sink's entry and kind, for messages: {@code data_sinks.files (S3)}
     * @param progress where lines about downloads and absent files go
     */
    CommittedFiles(
            FileStore store,
            String sink,
            String pipeline,
            FileFormat format,
            Consumer<String> progress) {
        this.store = store;
        this.sink = sink;
        this.format = format;
        this.progress = progress;
        try {
            this.committed = new CommitLog(store, pipeline).committedKeys();
        } catch (FileSinkException e) {
            close();
            throw unreadable(e.getMessage());
        }
    }

    /**
     * The stream's folder, as messages name it: its path in a local folder, else its folder in the
     * store ({@code mixed/ in gs://bucket/prefix}).
     */
    String where(String stream) {
        return store instanceof LocalFileStore local
                ? local.path(folder(stream)).toString()
                : folder(stream) + "/ in " + store.describe();
    }

    /**
     * The stream's committed files, in commit order; a remote store's replace the last stream's.
     */
    List<Path> of(String stream) {
        if (stream.equals(filesOf)) {
            return files;
        }
        String prefix = folder(stream) + "/";
        String extension = "." + format.extension();
        List<String> keys =
                committed.stream()
                        .filter(k -> k.startsWith(prefix))
                        .filter(k -> k.endsWith(extension) || k.endsWith(extension + ".gz"))
                        .toList();
        List<Path> found = new ArrayList<>();
        if (store instanceof LocalFileStore local) {
            for (String key : keys) {
                Path file = local.path(key);
                if (Files.exists(file)) {
                    found.add(file);
                } else {
                    absent(stream, key);
                }
            }
        } else {
            found = download(stream, keys);
        }
        filesOf = stream;
        files = found;
        return found;
    }

    private List<Path> download(String stream, List<String> keys) {
        List<Path> copies = new ArrayList<>();
        if (keys.isEmpty()) {
            return copies;
        }
        Path folder = downloads();
        progress.accept(
                stream
                        + ": downloading "
                        + keys.size()
                        + " committed files from "
                        + store.describe());
        long bytes = 0;
        long lastSaid = System.nanoTime();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            Path copy = folder.resolve(key).normalize();
            if (!copy.startsWith(folder)) {
                // the sink names files <stream folder>/<name>; no copy lands outside the folder
                throw unreadable(
                        "its commit log lists " + key + ", not a file name the sink writes");
            }
            try {
                Files.createDirectories(copy.getParent());
                store.download(key, copy);
                bytes += Files.size(copy);
            } catch (NoSuchFileException e) {
                absent(stream, key);
                continue;
            } catch (IOException e) {
                throw unreadable(new FileSinkException("download from", store, e).getMessage());
            }
            copies.add(copy);
            if (System.nanoTime() - lastSaid > PROGRESS_NANOS) {
                lastSaid = System.nanoTime();
                progress.accept(
                        stream
                                + ": downloaded "
                                + (i + 1)
                                + " of "
                                + keys.size()
                                + " files ("
                                + bytes / (1 << 20)
                                + " MiB)");
            }
        }
        return copies;
    }

    /** The download folder, emptied of the previous stream's copies: its comparison is over. */
    private Path downloads() {
        try {
            if (downloads == null) {
                downloads = Files.createTempDirectory("skippr-verify-files-");
            } else {
                SpillFolder.delete(downloads);
                Files.createDirectories(downloads);
            }
            return downloads;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create a temporary folder for the files of " + sink, e);
        }
    }

    private void absent(String stream, String key) {
        progress.accept(
                stream
                        + ": "
                        + key
                        + " is listed by the commit log but not in "
                        + store.describe()
                        + ": its rows are not read");
    }

    /** The store cannot be read: a configuration error (exit 2). */
    private UsageException unreadable(String why) {
        return new UsageException("cannot read the data sink " + sink + ": " + why);
    }

    private static String folder(String stream) {
        return Names.snake(stream);
    }

    /** Removes the downloaded copies and closes the store's client. */
    @Override
    public void close() {
        try {
            store.close();
        } catch (IOException e) {
            // nothing was written through it
        } finally {
            if (downloads != null) {
                SpillFolder.delete(downloads);
            }
        }
    }
}
