package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.DataType.Kind;
import io.skippr.core.spi.FailPoint.Stage;
import io.skippr.sinks.iceberg.IcebergTables;
import io.skippr.sinks.skipprlake.SkipprLakeCatalog;
import java.io.Closeable;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's own checks, turned red by deliberately broken destinations ("mutants") that need no
 * server: a truncated Parquet file, a garbage JSONL line or a missing file that a commit record
 * lists, a file that is not a DuckDB database, Iceberg metadata pointing to a missing data file or
 * manifest, too few rows after an after-commit kill, and invalid text in a JSON column. Each broken
 * variant must fail the check; each intact or absent one must pass it, so the mutant is what turns
 * it red.
 */
class KitReaderTest {
    @TempDir Path dir;

    // ---- file sinks: only committed files, read strictly ----------------------------------

    /** Writes a commit record (by hand, as the sink's format has it) listing {@code files}. */
    private void commit(String... files) throws Exception {
        Path record = dir.resolve("out/_skippr/commits/p/000001-000-kit.json");
        Files.createDirectories(record.getParent());
        StringBuilder list = new StringBuilder();
        for (String f : files) {
            list.append(list.length() == 0 ? "" : ", ").append('"').append(f).append('"');
        }
        Files.writeString(
                record,
                "{\"run\": 1, \"bounded\": false, \"subtask\": 0, \"parallelism\": 1, \"files\": ["
                        + list
                        + "], \"rows\": {}, \"positions\": {}}");
    }

    /** A Parquet file of rows {@code 1..n}, written by DuckDB (not by the sink under test). */
    private Path parquet(String key, int n) throws Exception {
        Path file = dir.resolve("out").resolve(key);
        Files.createDirectories(file.getParent());
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:")) {
            db.createStatement()
                    .execute(
                            "COPY (SELECT i::BIGINT AS id, md5(i::VARCHAR) AS _skippr_id,"
                                    + " 'x' || i AS status FROM range(1, "
                                    + (n + 1)
                                    + ") t(i)) TO '"
                                    + file
                                    + "' (FORMAT PARQUET)");
        }
        return file;
    }

    @Test
    void aSinkFolderThatDoesNotExistIsZeroRows() throws Exception {
        assertThat(SinkConformanceKit.keys(new LocalFileFixture("parquet"), dir, "orders"))
                .isZero();
        assertThat(SinkConformanceKit.keys(new LocalFileFixture("jsonl"), dir, "orders")).isZero();
    }

    @Test
    void aTruncatedParquetFileThatACommitRecordListsFailsTheRead() throws Exception {
        Path file = parquet("orders/p-1.parquet", 500);
        commit("orders/p-1.parquet");
        LocalFileFixture fixture = new LocalFileFixture("parquet");
        assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).as("intact").isEqualTo(500);

        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() / 2);
        }
        assertThatThrownBy(() -> SinkConformanceKit.keys(fixture, dir, "orders"))
                .as("a truncated committed file is a read error, not zero rows")
                .isNotInstanceOf(AssertionError.class);
    }

    @Test
    void aCommittedFileThatIsMissingFailsTheRead() throws Exception {
        parquet("orders/p-1.parquet", 10);
        commit("orders/p-1.parquet", "orders/p-2.parquet");
        assertThatThrownBy(
                        () ->
                                SinkConformanceKit.keys(
                                        new LocalFileFixture("parquet"), dir, "orders"))
                .as("a file the commit record lists but the store lacks")
                .isInstanceOf(FileStoreFixture.UnrecordedFiles.class)
                .hasMessage(
                        "LocalFile: files commit records list that the store lacks:"
                                + " [orders/p-2.parquet]");
    }

    @Test
    void aFileUnderAFinalNameThatNoCommitRecordListsFailsTheRead() throws Exception {
        parquet("orders/p-1.parquet", 10);
        parquet("orders/dt=2026-11-01/p-2.parquet", 10);
        commit("orders/p-1.parquet", "orders/dt=2026-11-01/p-2.parquet");
        parquet("other/p-9.parquet", 10); // another stream's folder
        Path staged = dir.resolve("out/.skippr-staging/p/x.parquet.tmp"); // the product's own area
        Files.createDirectories(staged.getParent());
        Files.writeString(staged, "staged");
        LocalFileFixture fixture = new LocalFileFixture("parquet");
        assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).as("intact").isEqualTo(10);

        parquet("orders/dt=2026-11-01/p-3.parquet", 10); // a copy a failed cleanup left
        assertThatThrownBy(() -> SinkConformanceKit.keys(fixture, dir, "orders"))
                .isInstanceOf(FileStoreFixture.UnrecordedFiles.class)
                .hasMessage(
                        "LocalFile: files under final names that no commit record lists (a user's"
                                + " glob reads them): [orders/dt=2026-11-01/p-3.parquet]");
    }

    private void jsonl(String key, String text) throws Exception {
        Path file = dir.resolve("out").resolve(key);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    @Test
    void aGarbageLineInACommittedJsonlFileFailsTheRead() throws Exception {
        String good = "{\"id\": 1, \"_skippr_id\": \"a\"}\n{\"id\": 2, \"_skippr_id\": \"b\"}\n";
        jsonl("orders/p-1.jsonl", good);
        commit("orders/p-1.jsonl");
        LocalFileFixture fixture = new LocalFileFixture("jsonl");
        assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).as("intact").isEqualTo(2);

        jsonl("orders/p-1.jsonl", good + "garbage\n");
        assertThatThrownBy(() -> SinkConformanceKit.keys(fixture, dir, "orders"))
                .hasMessageContaining("p-1.jsonl:3: a committed JSONL line that is not JSON");

        jsonl("orders/p-1.jsonl", good + "{\"id\": 3, \"_skippr_id\": \"c\"");
        assertThatThrownBy(() -> SinkConformanceKit.keys(fixture, dir, "orders"))
                .as("a half-written last line")
                .hasMessageContaining("p-1.jsonl:3:");

        jsonl("orders/p-1.jsonl", good + "{\"id\": 3} {\"id\": 4}\n");
        assertThatThrownBy(() -> SinkConformanceKit.keys(fixture, dir, "orders"))
                .as("two objects on one line")
                .hasMessageContaining("p-1.jsonl:3:");

        jsonl("orders/p-1.jsonl", good + "[1, 2]\n");
        assertThatThrownBy(() -> SinkConformanceKit.keys(fixture, dir, "orders"))
                .hasMessageContaining(
                        "p-1.jsonl:3: a committed JSONL line that is not a JSON object");
    }

    // ---- DuckDB: an absent table is zero rows, an unreadable database is an error ----------

    @Test
    void aDuckDbFileOrTableThatDoesNotExistIsZeroRows() throws Exception {
        DuckDbFixture fixture = new DuckDbFixture();
        assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).isZero();
        assertThat(dir.resolve("warehouse.duckdb"))
                .as("reading created no database")
                .doesNotExist();

        try (Connection db =
                DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("warehouse.duckdb"))) {
            db.createStatement().execute("CREATE SCHEMA raw");
            db.createStatement().execute("CREATE TABLE raw.other (id BIGINT)");
        }
        assertThat(SinkConformanceKit.keys(fixture, dir, "orders")).isZero();
    }

    @Test
    void aDuckDbFileThatIsNotADatabaseFailsTheRead() throws Exception {
        Files.write(
                dir.resolve("warehouse.duckdb"),
                new byte[] {'n', 'o', 't', ' ', 'a', ' ', 'd', 'b'});
        assertThatThrownBy(() -> SinkConformanceKit.keys(new DuckDbFixture(), dir, "orders"))
                .isInstanceOf(java.sql.SQLException.class);
    }

    // ---- Iceberg: metadata pointing to a missing file is an error -------------------------

    private Catalog lake() {
        return SkipprLakeCatalog.of(
                        "test.", dir.resolve("lake").toString(), null, null, null, null, null)
                .open();
    }

    /** A SkipprLake table {@code orders} whose one snapshot lists a data file never written. */
    private Table tableWithADanglingDataFile() throws Exception {
        Catalog catalog = lake();
        try {
            IcebergTables.ensureNamespace(catalog, Namespace.of("skippr"));
            Table table =
                    catalog.createTable(
                            TableIdentifier.of("skippr", IcebergTables.name("orders")),
                            new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
                            PartitionSpec.unpartitioned());
            DataFile missing =
                    DataFiles.builder(PartitionSpec.unpartitioned())
                            .withPath(dir.resolve("lake/never-written.parquet").toString())
                            .withFormat(FileFormat.PARQUET)
                            .withRecordCount(3)
                            .withFileSizeInBytes(1234)
                            .build();
            table.newAppend().appendFile(missing).commit();
            return table;
        } finally {
            ((Closeable) catalog).close();
        }
    }

    @Test
    void anIcebergTableThatDoesNotExistIsZeroRows() throws Exception {
        assertThat(SinkConformanceKit.keys(SkipprLakeFixture.embedded(), dir, "orders")).isZero();
    }

    @Test
    void anIcebergSnapshotListingAMissingDataFileFailsTheRead() throws Exception {
        tableWithADanglingDataFile();
        assertThatThrownBy(
                        () -> SinkConformanceKit.keys(SkipprLakeFixture.embedded(), dir, "orders"))
                .as("a data file the snapshot lists but the warehouse lacks")
                .isNotInstanceOf(AssertionError.class);
    }

    @Test
    void anIcebergSnapshotWhoseManifestIsMissingFailsTheRead() throws Exception {
        Table table = tableWithADanglingDataFile();
        List<ManifestFile> manifests = table.currentSnapshot().allManifests(table.io());
        assertThat(manifests).isNotEmpty();
        for (ManifestFile manifest : manifests) {
            Files.delete(Path.of(manifest.path().replaceFirst("^file:", "")));
        }
        assertThatThrownBy(
                        () -> SinkConformanceKit.keys(SkipprLakeFixture.embedded(), dir, "orders"))
                .as("a manifest the snapshot lists but the warehouse lacks")
                .isNotInstanceOf(AssertionError.class);
    }

    // ---- after an after-commit kill, a SQL sink shows every row ---------------------------

    @Test
    void afterAnAfterCommitKillASqlSinkShowingNoRowsFailsTheCheck() {
        for (SinkFixture sql : List.of(new PostgresFixture(), new DuckDbFixture())) {
            SinkConformanceKit.assertVisibleAfterKill(sql, Stage.AFTER_COMMIT, 2000, 2000);
            SinkConformanceKit.assertVisibleAfterKill(sql, Stage.BEFORE_COMMIT, 0, 2000);
            assertThatThrownBy(
                            () ->
                                    SinkConformanceKit.assertVisibleAfterKill(
                                            sql, Stage.AFTER_COMMIT, 0, 2000))
                    .as(sql.kind() + ": nothing visible after its one commit")
                    .isInstanceOf(AssertionError.class);
            assertThatThrownBy(
                            () ->
                                    SinkConformanceKit.assertVisibleAfterKill(
                                            sql, Stage.AFTER_COMMIT, 1000, 2000))
                    .as(sql.kind() + ": half visible after its one commit")
                    .isInstanceOf(AssertionError.class);
        }
        LocalFileFixture files = new LocalFileFixture("parquet");
        SinkConformanceKit.assertVisibleAfterKill(files, Stage.AFTER_COMMIT, 0, 2000);
        SinkConformanceKit.assertVisibleAfterKill(files, Stage.AFTER_COMMIT, 2000, 2000);
        assertThatThrownBy(
                        () ->
                                SinkConformanceKit.assertVisibleAfterKill(
                                        files, Stage.AFTER_COMMIT, 1000, 2000))
                .isInstanceOf(AssertionError.class);
    }

    // ---- JSON columns: invalid text is not a JSON string ----------------------------------

    /** The type matrix as a destination that lands every value as it was would give it back. */
    private static List<Map<String, Object>> matrixRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        TypeMatrix.EXPECTED.forEach(
                (id, values) -> {
                    Map<String, Object> row = new LinkedHashMap<>(values);
                    row.put("id", id);
                    rows.add(row);
                });
        return rows;
    }

    @Test
    void aJsonColumnHoldingInvalidTextFailsTheRoundTrip() {
        SinkFixture fixture = new LocalFileFixture("parquet");
        assertThat(SinkConformanceKit.wrongValues(fixture, matrixRows())).as("intact").isEmpty();

        List<Map<String, Object>> mutant = matrixRows();
        mutant.get(2).put("doc", "just text"); // row 3's document "just text", quotes stripped
        assertThat(SinkConformanceKit.wrongValues(fixture, mutant))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("row 3, doc JSON: expected \"just text\", got <unreadable JSON");

        assertThat(Canonical.of(Kind.JSON, "{\"a\": 1} trailing")).startsWith("<unreadable JSON");
        assertThat(Canonical.of(Kind.JSON, "\"just text\"")).isEqualTo("\"just text\"");
    }

    @Test
    void aJsonColumnEmbeddedInJsonLinesIsComparedAsItsDocument() throws Exception {
        jsonl(
                "t.jsonl",
                "{\"id\": 3, \"doc\": \"just text\"}\n"
                        + "{\"id\": 1, \"doc\": {\"c\": \"x y\", \"b\": [true, null], \"a\": 1}}\n"
                        + "{\"id\": 4, \"doc\": null}\n");
        List<Map<String, Object>> rows = JsonLines.readFile(dir.resolve("out/t.jsonl"));
        assertThat(Canonical.of(Kind.JSON, JsonLines.document(rows.get(0), "doc")))
                .as("the JSON string document, embedded")
                .isEqualTo(TypeMatrix.EXPECTED.get(3L).get("doc"));
        assertThat(Canonical.of(Kind.JSON, JsonLines.document(rows.get(1), "doc")))
                .isEqualTo(TypeMatrix.EXPECTED.get(1L).get("doc"));
        assertThat(JsonLines.document(rows.get(2), "doc")).isNull();
        assertThat(rows.get(0).get("doc")).as("its value, as text").isEqualTo("just text");
    }

    // ---- every column of every row: one value changed fails the digest ---------------------

    /** Rows 1..5 of the kit's orders table, as the source holds them and as read back. */
    private static List<Map<String, Object>> ordersAsRead(SourceTable.Expected want) {
        List<Map<String, Object>> rows = new ArrayList<>();
        want.rows()
                .forEach(
                        (id, row) -> {
                            Map<String, Object> read = new LinkedHashMap<>();
                            row.forEach((k, v) -> read.put(k, v == null ? null : v.toString()));
                            read.put("id", id); // the kit's key, a number as every reader gives it
                            read.put("_skippr_id", "id" + id);
                            rows.add(read);
                        });
        return rows;
    }

    @Test
    void aColumnNulledOrChangedInOneRowFailsTheDigest() {
        SinkFixture fixture = new LocalFileFixture("jsonl");
        SourceTable.Expected want = SourceTable.orderLines(1, 6);
        SinkConformanceKit.assertSameRows(fixture, want, ordersAsRead(want), false);

        List<Map<String, Object>> nulled = ordersAsRead(want);
        nulled.get(2).put("status", null); // a retried commit wrote status as NULL in one row
        assertThatThrownBy(() -> SinkConformanceKit.assertSameRows(fixture, want, nulled, false))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("md5 over every column of every row")
                .hasMessageContaining(
                        "key 3: source [[\"3\",\"3\",\"3.75\",\"new\"]],"
                                + " destination [[\"3\",\"3\",\"3.75\",null]]");

        List<Map<String, Object>> changed = ordersAsRead(want);
        changed.get(4).put("customer_id", "6"); // amount and the keys unchanged
        assertThatThrownBy(() -> SinkConformanceKit.assertSameRows(fixture, want, changed, false))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("key 5:");

        List<Map<String, Object>> copied = ordersAsRead(want);
        copied.add(new LinkedHashMap<>(copied.get(0)));
        SinkConformanceKit.assertSameRows(fixture, want, copied, true);
        copied.get(5).put("status", "paid"); // an at-least-once copy that differs
        assertThatThrownBy(() -> SinkConformanceKit.assertSameRows(fixture, want, copied, true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("key 1:");
    }
}
