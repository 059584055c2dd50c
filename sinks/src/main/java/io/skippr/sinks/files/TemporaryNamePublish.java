package io.skippr.sinks.files;

import java.io.IOException;

/**
 * Publishes a file staged under a temporary name by giving it its final name, never replacing a
 * file already there (DESIGN §6): the protocol of the stores that stage a file as a file of their
 * own (a local folder, GCS, SFTP), each giving names with its own primitive (a hard link, a
 * create-only copy, an SFTP link or rename) by extending this class.
 *
 * <p>The staged file, while there, gets the final name unless a file has it: true. Otherwise the
 * file under the name decides. The staged file itself (a replayed commit, stopped between naming
 * the file and removing its staged name, or named by another committer of the same commit): what is
 * left of the staged name is removed, false. Another file (a name used twice, or something else
 * writing there): the publish fails, naming it, and leaves it as it is. Nothing, with the staged
 * file gone too: the publish fails, as the store was changed under the pipeline.
 */
public abstract class TemporaryNamePublish {
    /** What is under a final name. */
    protected enum Occupant {
        NOTHING,
        STAGED_FILE,
        OTHER_FILE
    }

    private final String where;

    /**
     * @param where the store, as its {@link FileStore#describe} names it
     */
    protected TemporaryNamePublish(String where) {
        this.where = where;
    }

    /** Whether the staged file is still under its temporary name. */
    protected abstract boolean isStaged(String temp) throws IOException;

    /**
     * Gives the staged file its final name unless a file has it, and removes the temporary name:
     * true if it did; false, changing nothing, when a file has the name or the staged file vanished
     * meanwhile.
     */
    protected abstract boolean nameCreateOnly(String temp, String target) throws IOException;

    /**
     * What is under {@code target}.
     *
     * @param staged whether the staged file is there to compare with; without it, a store that
     *     cannot tell takes a file under the name for the staged one (named by an earlier publish)
     */
    protected abstract Occupant occupant(String temp, String target, boolean staged)
            throws IOException;

    /** Removes the staged file's temporary name; nothing happens if it is gone. */
    protected abstract void removeStaged(String temp) throws IOException;

    /**
     * Makes a new final name survive a power loss, where the store's writes do not already once
     * they return (a local folder's entries are flushed).
     */
    protected void durable(String target) throws IOException {}

    /** {@code target} as messages name it: with its bucket, or its server. */
    protected String shown(String target) {
        return target;
    }

    /** What a refusal says of the committed file under {@code target}, such as " (12 bytes)". */
    protected String about(String target) throws IOException {
        return "";
    }

    /**
     * Publishes {@code staged} (its token is the temporary name) under {@code target}, the store's
     * own name for its key.
     *
     * @return true if it named the file; false if {@code target} already held it (a replayed
     *     commit)
     */
    public final boolean publish(FileStore.Staged staged, String target) throws IOException {
        String temp = staged.token();
        boolean isStaged = isStaged(temp);
        if (isStaged) {
            if (nameCreateOnly(temp, target)) {
                durable(target);
                return true;
            }
            isStaged = isStaged(temp); // a concurrent replay of this commit may have named it
        }
        switch (occupant(temp, target, isStaged)) {
            case STAGED_FILE -> {
                if (isStaged) { // named, the staged name not yet removed: a replayed commit
                    removeStaged(temp);
                    durable(target);
                }
                return false;
            }
            case OTHER_FILE ->
                    throw new IOException(
                            "refusing to publish "
                                    + shown(target)
                                    + ": it already holds a committed file"
                                    + about(target)
                                    + " that is not the staged file "
                                    + temp
                                    + ", and a publish never replaces a committed file. A file"
                                    + " name was used twice, or something else wrote into the"
                                    + " sink's folder; the file is left as it is");
            default -> {
                if (isStaged) {
                    throw new IOException(
                            shown(target)
                                    + " refused the publish as existing, then was gone: something"
                                    + " else writes under "
                                    + where);
                }
                throw new IOException(
                        "staged file "
                                + temp
                                + " is gone and "
                                + staged.key()
                                + " was never published in "
                                + where
                                + ": the sink's folder was changed while the pipeline ran");
            }
        }
    }
}
