package io.skippr.sinks.snowflake;

import io.skippr.sinks.staged.StagedLoad;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Snowflake's {@code COPY INTO <staging table> FROM @stage FILES = (…) FILE_FORMAT = (TYPE =
 * PARQUET) MATCH_BY_COLUMN_NAME = CASE_SENSITIVE}: loads exactly the files of one staged set, in
 * the commit's transaction. A file Snowflake's load history shows as loaded into that table is
 * skipped, so the statement is safe to repeat; staging tables are new per set, so nothing is
 * skipped that should load.
 *
 * @param stage the stage the files are in, as statements name it ({@code @"schema"."stage"})
 */
record SnowflakeCopy(String stage) implements StagedLoad {
    private static final long serialVersionUID = 1L;

    /** Unused: Snowflake loads named files, never a manifest. */
    @Override
    public void load(Connection c, String qualifiedTable, String manifestUrl) throws SQLException {
        throw new SQLException("Snowflake loads a staged set by its files: " + manifestUrl);
    }

    @Override
    public void load(Connection c, String qualifiedTable, String manifestUrl, List<String> files)
            throws SQLException {
        if (files.isEmpty()) {
            return;
        }
        try (Statement st = c.createStatement()) {
            st.execute(statement(qualifiedTable, files));
        }
    }

    String statement(String qualifiedTable, List<String> files) {
        return "COPY INTO "
                + qualifiedTable
                + " FROM '"
                + stage.replace("\\", "\\\\").replace("'", "\\'")
                + "/' FILES = ("
                + files.stream()
                        .map(SnowflakeDialect.QUOTE::literal)
                        .collect(Collectors.joining(", "))
                + ") FILE_FORMAT = (TYPE = PARQUET) MATCH_BY_COLUMN_NAME = CASE_SENSITIVE"
                + " ON_ERROR = ABORT_STATEMENT";
    }
}
