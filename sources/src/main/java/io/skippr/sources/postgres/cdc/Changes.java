package io.skippr.sources.postgres.cdc;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A committed transaction's changes in the order it made them, read once: those held in memory,
 * then those spilled to the transaction's file (see {@link SpillSettings}). The file is deleted
 * when the iterator has returned the last change, or by {@link #close}, whichever comes first; a
 * caller that does not read to the end closes.
 */
public final class Changes implements Iterable<Change>, AutoCloseable {
    private static final int FILE_BUFFER_BYTES = 1 << 16;

    private final List<Change> inMemory;
    private final Path file;
    private final int spilled;
    private final List<RelationInfo> relations;
    private final long commitLsn;
    private final long xid;
    private final Instant commitTime;
    private boolean iterated;
    private DataInputStream in;
    private boolean deleted;

    Changes(
            List<Change> inMemory,
            Path file,
            int spilled,
            List<RelationInfo> relations,
            long commitLsn,
            long xid,
            Instant commitTime) {
        this.inMemory = inMemory;
        this.file = file;
        this.spilled = spilled;
        this.relations = relations;
        this.commitLsn = commitLsn;
        this.xid = xid;
        this.commitTime = commitTime;
        this.deleted = file == null;
    }

    /** How many changes the transaction made. */
    public long size() {
        return (long) inMemory.size() + spilled;
    }

    /**
     * The changes, in order; the second call fails.
     *
     * @throws IllegalStateException when called again, or after {@link #close}
     */
    @Override
    public Iterator<Change> iterator() {
        if (iterated) {
            throw new IllegalStateException(
                    "the changes of transaction " + xid + " can be read once only");
        }
        iterated = true;
        return new Reader();
    }

    /** How many changes are held in memory (the rest are in the file). */
    int inMemory() {
        return inMemory.size();
    }

    /** The spill file, null when nothing spilled. */
    Path file() {
        return file;
    }

    /** Deletes the spill file; reading after this fails. */
    @Override
    public void close() throws IOException {
        iterated = true;
        try {
            if (in != null) {
                in.close();
                in = null;
            }
        } finally {
            if (!deleted) {
                deleted = true;
                Files.deleteIfExists(file);
            }
        }
    }

    private final class Reader implements Iterator<Change> {
        private int next;

        @Override
        public boolean hasNext() {
            return next < size();
        }

        @Override
        public Change next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            int index = next++;
            if (index < inMemory.size()) {
                return inMemory.get(index);
            }
            try {
                if (deleted) {
                    throw new IllegalStateException(
                            "the changes of transaction " + xid + " were closed");
                }
                if (in == null) {
                    in =
                            new DataInputStream(
                                    new BufferedInputStream(
                                            Files.newInputStream(file), FILE_BUFFER_BYTES));
                }
                Change change = SpillFormat.read(in, relations, commitLsn, xid, commitTime);
                if (!hasNext()) {
                    close();
                }
                return change;
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Reading the spilled changes of transaction "
                                + xid
                                + " from "
                                + file
                                + " failed: "
                                + e.getMessage(),
                        e);
            }
        }
    }
}
