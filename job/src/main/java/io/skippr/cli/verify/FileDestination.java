package io.skippr.cli.verify;

import io.skippr.cli.UsageException;
import io.skippr.core.naming.Names;
import io.skippr.core.record.DataType;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinkException;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.JsonText;
import io.skippr.sinks.files.LocalFileStore;
import io.skippr.sources.postgres.ColumnInfo;
import io.skippr.sources.postgres.TableInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A file data sink's files (LocalFile, S3, GCS, AzureBlob, SFTP), read by an embedded in-memory
 * DuckDB: each stream is a view over the files its pipeline's commit log lists as committed (files
 * of a run that did not complete, or still staged, are never read). The log is read once, so the
 * files compared are those committed when verify started. A local folder's files are read where
 * they are; a remote store's are downloaded first, a stream's at a time, one file at a time
 * streamed to disk, into a temporary folder removed at {@link #close} (the previous stream's copies
 * are removed when the next stream's are downloaded). Parquet is read by {@code read_parquet}; CSV
 * by {@code read_csv} as texts and JSONL copied in as texts ({@link JsonlTable}), both then typed
 * from the source's schema ({@link TextColumns}).
 */
final class FileDestination extends EmbeddedDuckDbDestination implements AutoCloseable {
    /**
     * The longest CSV record read: the LocalFile source's limit (DuckDB's default is 2 MB); a
     * longer one fails the read. Not more: DuckDB reserves 16 times this for a gzip-compressed
     * file's buffer (1 GiB made it ask for 16 GiB).
     */
    private static final int MAX_CSV_RECORD = 16 << 20;

    private static final long PROGRESS_NANOS = 5_000_000_000L;

    private final FileStore store;
    private final String sink;
    private final FileFormat format;
    private final List<String> committed;
    private final SpillFolder spill;
    private final Consumer<String> progress;

    /** The stream whose files {@link #copies} are, or null. */
    private String filesOf;

    private List<Path> copies;

    /**
     * Reads the commit log; a store that cannot be read is a configuration error naming {@code
     * sink} and the store's own words.
     *
     * @param duckDb an in-memory DuckDB connection the views are created in
     * @param sink the sink's entry and kind, for messages: {@code data_sinks.files (S3)}
     * @param progress where lines about long downloads go
     */
    FileDestination(
            Connection duckDb,
            FileStore store,
            String sink,
            String pipeline,
            FileFormat format,
            Consumer<String> progress)
            throws SQLException {
        super(duckDb);
        this.store = store;
        this.sink = sink;
        this.format = format;
        this.progress = progress;
        try {
            this.committed = new CommitLog(store, pipeline).committedKeys();
        } catch (FileSinkException e) {
            try {
                store.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw unreadable(e.getMessage());
        }
        // JSONL rows are copied into DuckDB, which spills beyond its memory limit; a remote
        // store's files are downloaded there
        this.spill =
                format == FileFormat.JSONL || !(store instanceof LocalFileStore)
                        ? new SpillFolder(duckDb, "skippr-verify-files-")
                        : null;
    }

    /** JSONL writes a JSON value that is JSON's null as it writes a NULL: both compare as NULL. */
    @Override
    public Canonical.Form form() {
        return format == FileFormat.JSONL ? new Canonical.Form(true, false, true) : super.form();
    }

    /**
     * The stream's folder, as messages name it: its path in a local folder, else its folder in the
     * store ({@code mixed/ in gs://bucket/prefix}).
     */
    @Override
    public String table(String stream) {
        return store instanceof LocalFileStore local
                ? local.path(folder(stream)).toString()
                : folder(stream) + "/ in " + store.describe();
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
        List<Path> files = files(stream);
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
        List<Path> files = files(stream);
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

    /**
     * The stream's committed files of the sink's format, compressed or not, as local files: where
     * they are in a local folder, else downloaded. A file the log lists that the store lacks is
     * left out, with a line saying so: its rows count as missing.
     */
    private List<Path> files(String stream) throws SQLException {
        if (stream.equals(filesOf)) {
            return copies;
        }
        String prefix = folder(stream) + "/";
        String extension = "." + format.extension();
        List<String> keys =
                committed.stream()
                        .filter(k -> k.startsWith(prefix))
                        .filter(k -> k.endsWith(extension) || k.endsWith(extension + ".gz"))
                        .toList();
        List<Path> files = new ArrayList<>();
        if (store instanceof LocalFileStore local) {
            for (String key : keys) {
                Path file = local.path(key);
                if (Files.exists(file)) {
                    files.add(file);
                } else {
                    absent(stream, key);
                }
            }
        } else {
            files = download(stream, keys);
        }
        filesOf = stream;
        copies = files;
        return files;
    }

    /** Downloads {@code keys} into the spill folder, in place of the previous stream's copies. */
    private List<Path> download(String stream, List<String> keys) throws SQLException {
        Path folder = spill.path().resolve("files");
        SpillFolder.delete(folder); // the previous stream's: its comparison is over
        List<Path> files = new ArrayList<>();
        if (keys.isEmpty()) {
            return files;
        }
        progress.accept(
                stream
                        + ": downloading "
                        + keys.size()
                        + " committed files from "
                        + store.describe());
        long bytes = 0;
        long lastSaid = System.nanoTime();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            Path copy = folder.resolve(key).normalize();
            if (!copy.startsWith(folder)) {
                // the sink names files <stream folder>/<name>; no copy lands outside the folder
                throw unreadable(
                        "its commit log lists " + key + ", not a file name the sink writes");
            }
            try {
                Files.createDirectories(copy.getParent());
                store.download(key, copy);
                bytes += Files.size(copy);
            } catch (NoSuchFileException e) {
                absent(stream, key);
                continue;
            } catch (IOException e) {
                throw unreadable(new FileSinkException("download from", store, e).getMessage());
            }
            files.add(copy);
            if (System.nanoTime() - lastSaid > PROGRESS_NANOS) {
                lastSaid = System.nanoTime();
                progress.accept(
                        stream
                                + ": downloaded "
                                + (i + 1)
                                + " of "
                                + keys.size()
                                + " files ("
                                + bytes / (1 << 20)
                                + " MiB)");
            }
        }
        return files;
    }

    private void absent(String stream, String key) {
        progress.accept(
                stream
                        + ": "
                        + key
                        + " is listed by the commit log but not in "
                        + store.describe()
                        + ": its rows are not read");
    }

    /** The store cannot be read: a configuration error (exit 2). */
    private UsageException unreadable(String why) {
        return new UsageException("cannot read the data sink " + sink + ": " + why);
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

    private static String folder(String stream) {
        return Names.snake(stream);
    }

    /** Removes the spill folder (JSONL rows, downloaded files) and closes the store's client. */
    @Override
    public void close() {
        try {
            store.close();
        } catch (IOException e) {
            // nothing was written through it
        } finally {
            if (spill != null) {
                spill.close();
            }
        }
    }
}
