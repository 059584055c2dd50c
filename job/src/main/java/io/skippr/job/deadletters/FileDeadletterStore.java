package io.skippr.job.deadletters;

import io.skippr.core.record.Deadletter;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code skippr_deadletters/} files of a file deadletter sink (LocalFile, S3, GCS, Azure Blob,
 * SFTP) in the format they were written in: the committed files are copied to a temporary folder
 * and read there with DuckDB, which reads JSONL, CSV and Parquet, compressed or not.
 */
final class FileDeadletterStore implements DeadletterStore {
    private final FileStore store;
    private final FileFormat format;

    FileDeadletterStore(FileStore store, FileFormat format) {
        this.store = store;
        this.format = format;
    }

    @Override
    public String describe() {
        return "the "
                + format.extension()
                + " files under "
                + store.describe()
                + "/"
                + Deadletter.STREAM
                + "/";
    }

    @Override
    public List<StoredDeadletter> read(String pipeline) throws IOException {
        Path local = Files.createTempDirectory("skippr-deadletters");
        try {
            Set<String> committed = new HashSet<>(new CommitLog(store, pipeline).committedKeys());
            List<String> files = new ArrayList<>();
            int n = 0;
            for (String key : store.list(Deadletter.STREAM + "/")) {
                if (!committed.contains(key)) {
                    continue; // staged, or left by a run that never committed it
                }
                String name = key.substring(key.lastIndexOf('/') + 1);
                Path copy = local.resolve((n++) + "-" + name);
                store.download(key, copy);
                files.add(copy.toString());
            }
            if (files.isEmpty()) {
                return List.of();
            }
            return query(files, pipeline);
        } finally {
            try (var walk = Files.walk(local)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            store.close();
        }
    }

    private List<StoredDeadletter> query(List<String> files, String pipeline) throws IOException {
        String list =
                files.stream()
                        .map(f -> "'" + f.replace("'", "''") + "'")
                        .collect(Collectors.joining(", ", "[", "]"));
        String from =
                switch (format) {
                    case PARQUET -> "read_parquet(" + list + ", union_by_name = true)";
                    case JSONL ->
                            "read_json("
                                    + list
                                    + ", format = 'newline_delimited', union_by_name = true)";
                    case CSV ->
                            "read_csv("
                                    + list
                                    + ", header = true, all_varchar = true, union_by_name = true)";
                };
        String sql =
                "SELECT CAST(\"_skippr_id\" AS VARCHAR), CAST(\"stream\" AS VARCHAR),"
                        + " CAST(\"stage\" AS VARCHAR), CAST(\"error_class\" AS VARCHAR),"
                        + " CAST(\"error_message\" AS VARCHAR), CAST(\"failed_at\" AS TIMESTAMPTZ),"
                        + " CAST(\"source_position\" AS VARCHAR), CAST(\"payload\" AS VARCHAR),"
                        + " CAST(\"data_run\" AS BIGINT) FROM "
                        + from
                        + " WHERE CAST(\"pipeline\" AS VARCHAR) = '"
                        + pipeline.replace("'", "''")
                        + "'";
        List<StoredDeadletter> out = new ArrayList<>();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = db.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            try (ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    OffsetDateTime at = rs.getObject(6, OffsetDateTime.class);
                    out.add(
                            new StoredDeadletter(
                                    rs.getString(1),
                                    rs.getString(2),
                                    rs.getString(3),
                                    rs.getString(4),
                                    rs.getString(5),
                                    at == null ? null : at.toInstant(),
                                    rs.getString(7),
                                    rs.getString(8),
                                    rs.getLong(9)));
                }
            }
        } catch (SQLException e) {
            throw new IOException("Could not read " + describe() + ": " + e.getMessage(), e);
        }
        return out;
    }
}
