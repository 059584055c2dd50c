package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.JsonText;
import io.skippr.sources.postgres.ColumnInfo;
import io.skippr.sources.postgres.TableInfo;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A file data sink's files (LocalFile, S3, GCS, AzureBlob, SFTP), read by an embedded in-memory
 * DuckDB: each stream is a view over the files its pipeline's commit log lists as committed ({@link
 * CommittedFiles}: where they are, or downloaded from a remote store). Parquet is read by {@code
 * read_parquet}; CSV by {@code read_csv} as texts and JSONL copied in as texts ({@link
 * JsonlTable}), both then typed from the source's schema ({@link TextColumns}).
 */
final class FileDestination extends EmbeddedDuckDbDestination implements AutoCloseable {
    /**
     * The longest CSV record read: the LocalFile source's limit (DuckDB's default is 2 MB); a
     * longer one fails the read. Not more: DuckDB reserves 16 times this for a gzip-compressed
     * file's buffer (1 GiB made it ask for 16 GiB).
     */
    private static final int MAX_CSV_RECORD = 16 << 20;

    private final CommittedFiles committed;
    private final FileFormat format;
    private final SpillFolder spill;

    /**
     * @param duckDb an in-memory DuckDB connection the views are created in
     * @param committed the sink's committed files
     */
    FileDestination(Connection duckDb, CommittedFiles committed, FileFormat format)
            throws SQLException {
        super(duckDb);
        this.committed = committed;
        this.format = format;
        // JSONL rows are copied into DuckDB, which spills beyond its memory limit
        this.spill =
                format == FileFormat.JSONL ? new SpillFolder(duckDb, "skippr-verify-jsonl-") : null;
    }

    /** JSONL writes a JSON value that is JSON's null as it writes a NULL: both compare as NULL. */
    @Override
    public Canonical.Form form() {
        return format == FileFormat.JSONL ? new Canonical.Form(true, false, true) : super.form();
    }

    /** The stream's folder, as messages name it. */
    @Override
    public String table(String stream) {
        return committed.where(stream);
    }

    @Override
    public String readTable(String stream) {
        return quote(stream);
    }

    /**
     * The Parquet view's columns, the view created first; null when no committed file holds the
     * stream.
     */
    @Override
    public Map<String, String> columns(String stream) throws SQLException {
        List<Path> files = committed.of(stream);
        if (files.isEmpty()) {
            return null;
        }
        view(stream, "SELECT * FROM read_parquet(" + list(files) + ", union_by_name = true)");
        return describe(stream);
    }

    /**
     * The typed view's columns: the source's columns the files have, typed from the source's schema
     * for text formats; null when no committed file holds the stream.
     */
    @Override
    public Map<String, String> columns(TableInfo source) throws SQLException {
        if (format == FileFormat.PARQUET) {
            return columns(source.stream());
        }
        String stream = source.stream();
        List<Path> files = committed.of(stream);
        if (files.isEmpty()) {
            return null;
        }
        String relation;
        Set<String> present;
        if (format == FileFormat.CSV) {
            // RFC 4180 as CsvRowFileWriter writes it: an unquoted empty field is NULL, "" empty
            relation =
                    "read_csv("
                            + list(files)
                            + ", header = true, all_varchar = true, delim = ',', quote = '\"',"
                            + " escape = '\"', allow_quoted_nulls = false, union_by_name = true,"
                            + " max_line_size = "
                            + MAX_CSV_RECORD
                            + ")";
            present = new HashSet<>();
            for (String[] row : reader().query("DESCRIBE SELECT * FROM " + relation, List.of())) {
                present.add(row[0]);
            }
        } else {
            List<String> names = new ArrayList<>();
            Set<String> json = new HashSet<>();
            for (ColumnInfo c : source.columns()) {
                names.add(c.name());
                if (c.type().kind() == DataType.Kind.JSON) {
                    json.add(c.name());
                }
            }
            for (String meta : List.of(JsonText.ID, Tables.SOFT_DELETED)) {
                if (!names.contains(meta)) {
                    names.add(meta);
                }
            }
            String table = "_skippr_jsonl_" + stream;
            present = new JsonlTable(names, json).load(duckDb, table, files, this::quote);
            relation = quote(table);
        }
        view(stream, TextColumns.select(relation, present, source.columns(), this::quote));
        return describe(stream);
    }

    /** {@code files} as a DuckDB list of texts. */
    private static String list(List<Path> files) {
        return files.stream()
                .map(f -> "'" + f.toString().replace("'", "''") + "'")
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private void view(String stream, String select) throws SQLException {
        try (Statement s = duckDb.createStatement()) {
            s.execute("CREATE OR REPLACE TEMP VIEW " + quote(stream) + " AS " + select);
        }
    }

    /** Removes the spill folder of JSONL rows. */
    @Override
    public void close() {
        if (spill != null) {
            spill.close();
        }
    }
}
