package io.skippr.conformance;

import io.skippr.core.record.DataType;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileStore;
import java.nio.file.Files;
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

/**
 * A destination of the file-sink family (LocalFile, S3, Azure Blob, GCS, SFTP), read back as a user
 * would: the files its commit log lists, downloaded from its store and read with DuckDB (Parquet,
 * CSV) or as the JSON lines they are.
 */
abstract class FileStoreFixture implements SinkFixture {
    protected final String format;

    FileStoreFixture(String format) {
        this.format = format;
    }

    /** The store the sink writes to, as configured by {@link #sinkYaml}. */
    abstract FileStore store(Path dir) throws Exception;

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        String folder = table(stream) + "/";
        List<Path> files = new ArrayList<>();
        try (FileStore store = store(dir)) {
            Path local = Files.createTempDirectory(dir, "read-");
            for (String key : new CommitLog(store).committedKeys()) {
                if (key.startsWith(folder) || key.contains("/" + folder)) {
                    Path copy = local.resolve(files.size() + "-" + Path.of(key).getFileName());
                    store.download(key, copy);
                    files.add(copy);
                }
            }
        }
        if (files.isEmpty()) {
            return List.of();
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        if (format.equals("jsonl")) {
            for (Path f : files) {
                rows.addAll(JsonLines.readFile(f));
            }
            return rows;
        }
        String list =
                files.stream()
                        .map(f -> "'" + f.toString().replace("'", "''") + "'")
                        .collect(Collectors.joining(",", "[", "]"));
        String reader =
                switch (format) {
                    case "parquet" -> "read_parquet(" + list + ", union_by_name = true)";
                    // text as written: every digit of a decimal, and "" (the empty string)
                    // apart from an empty field (null), as the CSV format promises
                    default ->
                            "read_csv("
                                    + list
                                    + ", header = true, union_by_name = true, all_varchar = true,"
                                    + " allow_quoted_nulls = false)";
                };
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = db.createStatement().executeQuery("SELECT * FROM " + reader)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    Object value = rs.getObject(i);
                    if (meta.getColumnLabel(i).equals("id") && value instanceof String text) {
                        value = Long.parseLong(text); // the kit's key, read as text from CSV
                    }
                    row.put(meta.getColumnLabel(i), value);
                }
                rows.add(row);
            }
            return rows;
        }
    }

    /** Text formats hold bytes as base64 (docs/connectors/localfile.md). */
    @Override
    public String landed(DataType.Kind kind, String canonical) {
        if (kind == DataType.Kind.BYTES && !format.equals("parquet")) {
            return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(canonical));
        }
        return canonical;
    }

    /** Parquet holds 64-bit microseconds; JSON and CSV hold the text. */
    @Override
    public boolean storesExtremeTimestamps() {
        return !format.equals("parquet");
    }
}
