package io.skippr.sinks.staged;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A warehouse's statement that loads a staged set's files into a table (Redshift: COPY; Snowflake:
 * COPY INTO).
 */
@FunctionalInterface
public interface StagedLoad extends Serializable {
    /**
     * Loads the files {@code manifestUrl} lists into {@code qualifiedTable}, whose columns are the
     * staged set's, in the caller's transaction.
     */
    void load(Connection c, String qualifiedTable, String manifestUrl) throws SQLException;

    /**
     * Loads exactly {@code files} (the stage keys of the set's parts, as its manifest lists them)
     * into {@code qualifiedTable}, in the caller's transaction; by default from the manifest. A
     * warehouse that names files rather than reading a manifest (Snowflake's {@code COPY INTO …
     * FILES = (…)}) overrides this.
     */
    default void load(Connection c, String qualifiedTable, String manifestUrl, List<String> files)
            throws SQLException {
        load(c, qualifiedTable, manifestUrl);
    }
}
