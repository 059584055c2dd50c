package io.skippr.sinks.snowflake;

import io.skippr.sinks.staged.StagedLoad;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Snowflake's {@code COPY INTO <staging table> FROM @stage FILES = (…) FILE_FORMAT = (TYPE =
 * PARQUET) MATCH_BY_COLUMN_NAME = CASE_SENSITIVE FORCE = TRUE}: loads exactly the files of one
 * staged set, in the commit's transaction. {@code FORCE} loads them whatever Snowflake's load
 * history says (a rolled-back attempt's history must not make the next attempt skip its files): the
 * marker decides whether a set was committed, and the commit checks that the staging table holds
 * exactly the set's rows.
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
                + " FROM "
                + SnowflakeDialect.QUOTE.literal(stage + "/")
                + " FILES = ("
                + files.stream()
                        .map(SnowflakeDialect.QUOTE::literal)
                        .collect(Collectors.joining(", "))
                + ") FILE_FORMAT = (TYPE = PARQUET) MATCH_BY_COLUMN_NAME = CASE_SENSITIVE"
                + " ON_ERROR = ABORT_STATEMENT FORCE = TRUE";
    }
}
