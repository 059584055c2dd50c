package io.skippr.sinks.staged;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;

/** A warehouse's statement that loads a staged set's files into a table (Redshift: COPY). */
@FunctionalInterface
public interface StagedLoad extends Serializable {
    /**
     * Loads the files {@code manifestUrl} lists into {@code qualifiedTable}, whose columns are the
     * staged set's, in the caller's transaction.
     */
    void load(Connection c, String qualifiedTable, String manifestUrl) throws SQLException;
}
