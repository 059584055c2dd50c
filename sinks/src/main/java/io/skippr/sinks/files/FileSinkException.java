package io.skippr.sinks.files;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A file sink could not reach or use its store: the message names the store ({@code
 * s3://bucket/prefix}, {@code sftp://host:22/path}) and what went wrong: the store's own words, or
 * the first cause that has any.
 */
public final class FileSinkException extends UncheckedIOException {
    public FileSinkException(String doing, FileStore store, IOException cause) {
        super("cannot " + doing + " " + store.describe() + ": " + reason(cause), cause);
    }

    private static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return e.getClass().getSimpleName();
    }
}
