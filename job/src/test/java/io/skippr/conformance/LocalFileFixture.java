package io.skippr.conformance;

import io.skippr.core.naming.Names;
import io.skippr.core.record.DataType;
import io.skippr.sinks.files.CommitLog;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The LocalFile sink, in one format, read back through its commit log with DuckDB. */
record LocalFileFixture(String format) implements SinkFixture {
    @Override
    public String kind() {
        return "LocalFile";
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    LocalFile: {path: out, format: " + format + "}\n";
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        String folder = "/" + Names.snake(stream) + "/";
        List<String> files =
                new CommitLog(dir.resolve("out"))
                        .committedFiles().stream().filter(f -> f.contains(folder)).toList();
        if (files.isEmpty()) {
            return List.of();
        }
        if (format.equals("jsonl")) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (String f : files) {
                JsonLines.read(Path.of(f), node -> true, rows);
            }
            return rows;
        }
        String list =
                files.stream()
                        .map(f -> "'" + f.replace("'", "''") + "'")
                        .collect(Collectors.joining(",", "[", "]"));
        String reader =
                switch (format) {
                    case "parquet" -> "read_parquet(" + list + ", union_by_name = true)";
                    default -> "read_csv(" + list + ", header = true, union_by_name = true)";
                };
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = db.createStatement().executeQuery("SELECT * FROM " + reader)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(meta.getColumnLabel(i), rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    /** JSON has no bytes: JSONL files hold them as base64 (docs/connectors/localfile.md). */
    @Override
    public String landed(DataType.Kind kind, String canonical) {
        if (kind == DataType.Kind.BYTES && format.equals("jsonl")) {
            return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(canonical));
        }
        return canonical;
    }

    @Override
    public boolean storesExtremeTimestamps() {
        return !format.equals("parquet");
    }
}
