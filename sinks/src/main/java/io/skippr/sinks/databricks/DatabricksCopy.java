package io.skippr.sinks.databricks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.sinks.staged.StagedLoad;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Databricks' {@code COPY INTO <table> FROM '<set folder>' FILEFORMAT = PARQUET FILES = (…)}: loads
 * exactly the parts a staged set's manifest lists, each at most once into a table (COPY INTO skips
 * a file it loaded before), so a repeated commit loads nothing twice.
 */
record DatabricksCopy(VolumeStage stage) implements StagedLoad {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DatabricksDialect DIALECT = new DatabricksDialect();

    /** The most files one COPY INTO names (Databricks' limit for FILES). */
    static final int MAX_FILES = 1000;

    @Override
    public void load(Connection c, String qualifiedTable, String manifestUrl) throws SQLException {
        List<String> parts = new ArrayList<>();
        try {
            String key = manifestUrl.substring(stage.root().length() + 1);
            byte[] manifest = stage.get(key);
            if (manifest == null) {
                throw new SQLException("staged manifest " + manifestUrl + " is gone", "42K03");
            }
            for (JsonNode entry : JSON.readTree(manifest).path("entries")) {
                parts.add(entry.path("url").asText());
            }
        } catch (IOException e) {
            throw new SQLException("reading " + manifestUrl + ": " + e.getMessage(), "08006", e);
        }
        for (int from = 0; from < parts.size(); from += MAX_FILES) {
            List<String> some = parts.subList(from, Math.min(parts.size(), from + MAX_FILES));
            try (Statement st = c.createStatement()) {
                st.execute(statement(qualifiedTable, some));
            }
        }
    }

    /** The COPY INTO of {@code parts} (full volume paths, all in one folder). */
    static String statement(String qualifiedTable, List<String> parts) {
        String first = parts.get(0);
        String folder = first.substring(0, first.lastIndexOf('/'));
        List<String> names = new ArrayList<>();
        for (String part : parts) {
            names.add(DIALECT.literal(part.substring(folder.length() + 1)));
        }
        return "COPY INTO "
                + qualifiedTable
                + " FROM "
                + DIALECT.literal(folder)
                + " FILEFORMAT = PARQUET FILES = ("
                + String.join(", ", names)
                + ")";
    }
}
