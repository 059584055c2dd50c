package io.skippr.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.core.record.DataType;
import io.skippr.sinks.files.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A destination of the file-sink family (LocalFile, S3, Azure Blob, GCS, SFTP), read back as a
 * user's glob would: every object under the stream's folder ({@code <root>/<table>/}, at any
 * depth), listed through the store's own API or disk (not through the product's {@code CommitLog}
 * or {@code FileStore.list}), downloaded and read with DuckDB (Parquet, CSV) or as the JSON lines
 * they are. The product's own areas, {@code .skippr-staging/} and {@code _skippr/} at the root
 * (docs/connectors/localfile.md, "Exactly-once"), are not under any stream's folder. Each listed
 * file must be named by a commit record under {@code _skippr/commits/} (read here as the JSON the
 * docs describe): a file under a final name that no record lists fails the read, since a user's
 * glob reads it all the same.
 */
abstract class FileStoreFixture implements SinkFixture {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RECORDS = "_skippr/commits/";

    protected final String format;

    FileStoreFixture(String format) {
        this.format = format;
    }

    /** The store the sink writes to, as configured by {@link #sinkYaml}; used to download. */
    abstract FileStore store(Path dir) throws Exception;

    /**
     * Every object whose key (relative to the sink's root: its folder, or bucket and prefix) starts
     * with {@code prefix}, at any depth, as the store's own API (or disk) lists it to any client:
     * nothing filtered out.
     */
    abstract List<String> list(Path dir, String prefix) throws Exception;

    /**
     * The store and its commit records disagree: a file under a final name that no record lists (a
     * user's glob reads it all the same), or a file a record lists that the store lacks.
     */
    static final class UnrecordedFiles extends AssertionError {
        UnrecordedFiles(String what, List<String> keys) {
            super(what + ": " + keys);
        }
    }

    /**
     * The keys of the stream's files, as a glob over its folder finds them; throws {@link
     * UnrecordedFiles} when one of them has no commit record, or a record lists one that is absent.
     */
    List<String> files(Path dir, String stream) throws Exception {
        return files(dir, stream, false);
    }

    /**
     * The same; with {@code leftovers}, files no record lists are skipped rather than failing the
     * read: what a process killed between publishing a file and writing its record leaves, until
     * the next {@code --once} run removes "files no record lists" (docs/connectors/localfile.md).
     */
    private List<String> files(Path dir, String stream, boolean leftovers) throws Exception {
        String folder = table(stream) + "/";
        List<String> keys = list(dir, folder);
        Set<String> recorded = new HashSet<>();
        try (FileStore store = store(dir)) {
            for (String record : list(dir, RECORDS)) {
                String name = record.substring(record.lastIndexOf('/') + 1);
                if (!name.endsWith(".json") || name.startsWith(".")) {
                    continue; // a record still being written under a hidden temporary name
                }
                JsonNode doc = JSON.readTree(store.get(record));
                doc.path("files").forEach(f -> recorded.add(f.asText()));
            }
        }
        List<String> unrecorded = keys.stream().filter(k -> !recorded.contains(k)).toList();
        if (!leftovers && !unrecorded.isEmpty()) {
            throw new UnrecordedFiles(
                    kind()
                            + ": files under final names that no commit record lists (a user's"
                            + " glob reads them)",
                    unrecorded);
        }
        List<String> missing =
                recorded.stream()
                        .filter(k -> k.startsWith(folder) && !keys.contains(k))
                        .sorted()
                        .toList();
        if (!missing.isEmpty()) {
            throw new UnrecordedFiles(
                    kind() + ": files commit records list that the store lacks", missing);
        }
        return keys.stream().filter(recorded::contains).toList();
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        return read(dir, files(dir, stream, false));
    }

    /**
     * The rows of the files the commit records list, leftovers of a killed commit skipped: for the
     * check right after a kill, before the next run cleans up. Every other read is {@link #rows}.
     */
    List<Map<String, Object>> recordedRows(Path dir, String stream) throws Exception {
        return read(dir, files(dir, stream, true));
    }

    private List<Map<String, Object>> read(Path dir, List<String> keys) throws Exception {
        List<Path> files = new ArrayList<>();
        try (FileStore store = store(dir)) {
            Path local = Files.createTempDirectory(dir, "read-");
            for (String key : keys) {
                Path copy = local.resolve(files.size() + "-" + Path.of(key).getFileName());
                store.download(key, copy);
                files.add(copy);
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
