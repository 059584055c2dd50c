package io.skippr.sinks.sql;

import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Where a SQL sink's writers keep a checkpoint's rows until its commit. {@link StagingTables}: in
 * staging tables of the target schema, which the commit moves from (PostgreSQL, DuckDB). A
 * staged-load warehouse ({@code io.skippr.sinks.staged}) keeps them as files in its stage instead,
 * and the commit's transaction first loads exactly those files into a staging table of the same
 * name ({@link #load}); everything after that is the same commit.
 */
public interface Staging extends Serializable {

    /** The staged sets of {@code settings}'s schema, named and with their comment's JSON. */
    List<SqlDialect.StagingInfo> list(Connection c, SqlSinkSettings settings)
            throws SQLException, IOException;

    /** Removes staged set {@code name}, which no checkpoint holds; outside any commit. */
    void discard(Connection c, SqlSinkSettings settings, String name)
            throws SQLException, IOException;

    /**
     * In the commit's transaction, before its rows move: makes staging table {@code rows.staging()}
     * hold the staged rows of {@code rows}; false when they are gone.
     */
    boolean load(Connection c, SqlSinkSettings settings, SqlCommittable rows) throws SQLException;

    /**
     * After a commit's transaction committed, or found its marker row: removes what of {@code
     * committables}' staged sets outlives the transaction. Best effort: what it leaves, a later
     * start of the same pipeline and sink removes.
     */
    void committed(SqlSinkSettings settings, List<SqlCommittable> committables);

    /** How a message names staged set {@code name}. */
    String describe(SqlSinkSettings settings, String name);
}
