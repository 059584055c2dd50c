package io.skippr.core.spi;

import java.io.IOException;
import java.util.List;

/**
 * What a source keeps on its server for one pipeline between runs, such as a PostgreSQL replication
 * slot and publication ({@link SourceFactory#serverState}): {@code skipprd reset} drops it, and a
 * run or {@code skipprd verify} warns when it costs the server.
 */
public interface SourceServerState {
    /** What it is, in words, such as {@code replication slot skippr_shop on postgres://...}. */
    String describe();

    /**
     * What the user should hear of it now, a line each without the {@code "warning: "} prefix (such
     * as a slot nobody has read for a long time); empty when nothing.
     */
    List<String> warnings() throws IOException;

    /**
     * Checks that no run uses it now.
     *
     * @throws IllegalStateException when a run uses it, the message saying how to stop it
     */
    void checkUnused() throws IOException;

    /**
     * Lets the server forget what it keeps for positions the data sink has committed (a replication
     * slot's WAL before the committed LSN): called by the process that ran a bounded run, after the
     * job ended. Does nothing where the sink's committed positions cannot be read.
     */
    default void release() throws IOException {}

    /**
     * Drops it where it exists.
     *
     * @return what was dropped, in words; empty when nothing existed
     * @throws IllegalStateException when a run uses it now, the message saying how to stop it
     */
    List<String> drop() throws IOException;
}
