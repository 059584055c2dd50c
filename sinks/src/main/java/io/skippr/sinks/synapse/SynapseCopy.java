package io.skippr.sinks.synapse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.staged.StagedLoad;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Synapse's {@code COPY INTO <staging table> (<columns>) FROM '<part>', … WITH (FILE_TYPE =
 * 'PARQUET', CREDENTIAL = (IDENTITY = 'Storage Account Key', SECRET = '…'))}: loads exactly the
 * parts a staged set's manifest lists, in the caller's transaction. The column list is the staged
 * files' own columns in their own order ({@link SynapseParquet}), so the load is the same whether
 * COPY matches a file's columns to the list by position or by name. The statement holds the storage
 * account key: it is never logged, and no message repeats it.
 */
record SynapseCopy(BlobStage stage) implements StagedLoad {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SynapseDialect DIALECT = new SynapseDialect(false);

    @Override
    public void load(Connection c, String qualifiedTable, String manifestUrl) throws SQLException {
        List<String> parts = new ArrayList<>();
        try {
            byte[] manifest = stage.get(manifestUrl.substring(stage.url("").length()));
            if (manifest == null) {
                throw new SQLException("staged manifest " + manifestUrl + " is gone");
            }
            for (JsonNode entry : JSON.readTree(manifest).path("entries")) {
                parts.add(entry.path("url").asText());
            }
        } catch (IOException e) {
            throw new SQLException("reading " + manifestUrl + ": " + e.getMessage(), "08006", e);
        }
        List<String> names = SynapseNames.parts(qualifiedTable);
        var columns = DIALECT.columns(c, names.get(0), names.get(1));
        if (columns == null) {
            throw new SQLException("staging table " + qualifiedTable + " is gone");
        }
        try (Statement st = c.createStatement()) {
            st.execute(
                    statement(
                            qualifiedTable,
                            fileOrder(new ArrayList<>(columns.keySet())),
                            parts,
                            stage.accountKey()));
        }
    }

    /**
     * The staging table's columns in the order the staged Parquet files hold them (files staged
     * before version 3 of the committables call the delete flag {@link
     * SqlNames#DELETE_ROW_BEFORE_V3}, and so does their table).
     */
    static List<String> fileOrder(List<String> tableColumns) {
        List<String> out = new ArrayList<>(tableColumns);
        String deleteRow =
                tableColumns.contains(SqlNames.DELETE_ROW)
                        ? SqlNames.DELETE_ROW
                        : SqlNames.DELETE_ROW_BEFORE_V3;
        List<String> own = List.of(deleteRow, SqlNames.SEQ, SqlNames.ID, SqlNames.SYNCED_AT);
        out.removeAll(own);
        out.addAll(own);
        return out;
    }

    /** The COPY INTO of {@code parts} (their URLs) into {@code columns} of the table. */
    static String statement(
            String qualifiedTable, List<String> columns, List<String> parts, String key) {
        List<String> urls = new ArrayList<>();
        for (String part : parts) {
            urls.add("'" + part.replace("'", "''") + "'");
        }
        return "COPY INTO "
                + qualifiedTable
                + " ("
                + DIALECT.quoteAll(columns)
                + ") FROM "
                + String.join(", ", urls)
                + " WITH (FILE_TYPE = 'PARQUET', CREDENTIAL = (IDENTITY = 'Storage Account Key',"
                + " SECRET = '"
                + key.replace("'", "''")
                + "'))";
    }
}
