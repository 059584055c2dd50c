package io.skippr.sources.postgres.cdc;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes of the open transaction: the first {@link SpillSettings#maxChangesInMemory()} in
 * memory, the rest in a spill file created at the first one over. {@link #finish} hands them over
 * as {@link Changes}; {@link #close} without it (the stream closed mid-transaction) deletes the
 * file.
 */
final class ChangeBuffer implements AutoCloseable {
    private static final int FILE_BUFFER_BYTES = 1 << 16;

    private final SpillSettings settings;
    private final long commitLsn;
    private final long xid;
    private final Instant commitTime;
    private final List<Change> inMemory = new ArrayList<>();
    private final List<RelationInfo> relations = new ArrayList<>();
    private final Map<RelationInfo, Integer> relationIndex = new IdentityHashMap<>();
    private Path file;
    private DataOutputStream out;
    private int spilled;

    ChangeBuffer(SpillSettings settings, long commitLsn, long xid, Instant commitTime) {
        this.settings = settings;
        this.commitLsn = commitLsn;
        this.xid = xid;
        this.commitTime = commitTime;
    }

    void add(
            Change.Op op,
            RelationInfo relation,
            PgOutputMessage.Tuple newTuple,
            PgOutputMessage.Tuple oldTuple,
            boolean oldIsKey,
            long lsn)
            throws IOException {
        if (inMemory.size() < settings.maxChangesInMemory()) {
            inMemory.add(
                    relation.change(
                            op,
                            relation.values(newTuple),
                            relation.values(oldTuple),
                            oldIsKey,
                            lsn,
                            commitLsn,
                            xid,
                            commitTime));
            return;
        }
        relation.check(newTuple);
        relation.check(oldTuple);
        if (out == null) {
            open();
        }
        Integer index = relationIndex.get(relation);
        if (index == null) {
            index = relations.size();
            relations.add(relation);
            relationIndex.put(relation, index);
        }
        SpillFormat.write(out, op, index, lsn, oldIsKey, newTuple, oldTuple);
        spilled++;
    }

    /** How many changes are held in memory. */
    int inMemory() {
        return inMemory.size();
    }

    /** The transaction's changes, to be read once; this buffer is done. */
    Changes finish() throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
        Changes changes =
                new Changes(
                        List.copyOf(inMemory),
                        file,
                        spilled,
                        List.copyOf(relations),
                        commitLsn,
                        xid,
                        commitTime);
        file = null;
        return changes;
    }

    /** Deletes the spill file unless {@link #finish} handed it over. */
    @Override
    public void close() throws IOException {
        try {
            if (out != null) {
                out.close();
                out = null;
            }
        } finally {
            if (file != null) {
                Files.deleteIfExists(file);
                file = null;
            }
        }
    }

    private void open() throws IOException {
        Files.createDirectories(settings.directory());
        try {
            file =
                    Files.createTempFile(
                            settings.directory(),
                            "skippr-cdc-" + xid + "-",
                            ".spill",
                            PosixFilePermissions.asFileAttribute(
                                    PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            // createTempFile makes the file readable by its owner only where there is no POSIX
            file = Files.createTempFile(settings.directory(), "skippr-cdc-" + xid + "-", ".spill");
        }
        out =
                new DataOutputStream(
                        new BufferedOutputStream(Files.newOutputStream(file), FILE_BUFFER_BYTES));
    }
}
