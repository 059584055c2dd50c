package io.skippr.sinks.files;

import io.skippr.core.errors.Causes;
import io.skippr.core.io.DiskSpace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A file sink could not reach or use its store: the message names the store ({@code
 * s3://bucket/prefix}, {@code sftp://host:22/path}) and what went wrong: the store's own words, or
 * the first cause that has any.
 */
public final class FileSinkException extends UncheckedIOException {
    public FileSinkException(String doing, FileStore store, IOException cause) {
        super("cannot " + doing + " " + store.describe() + ": " + reason(cause), cause);
    }

    private FileSinkException(String message, IOException cause) {
        super(message, cause);
    }

    /**
     * A writer could not write a file it was preparing on this machine for {@code store}; on a full
     * disk the message says how much room the disk has.
     */
    public static FileSinkException localFile(Path file, FileStore store, IOException cause) {
        String room =
                DiskSpace.isFull(cause)
                        ? DiskSpace.free(file).map(r -> " (" + r + " on its disk)").orElse("")
                        : "";
        return new FileSinkException(
                "cannot write "
                        + file
                        + " (a file being prepared for "
                        + store.describe()
                        + "): "
                        + reason(cause)
                        + room,
                cause);
    }

    private static String reason(Throwable e) {
        return Causes.of(e)
                .map(Throwable::getMessage)
                .filter(m -> m != null && !m.isBlank())
                .findFirst()
                .orElse(e.getClass().getSimpleName());
    }
}
