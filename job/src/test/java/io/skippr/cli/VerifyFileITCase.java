package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import io.skippr.sinks.files.CommitLog;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd verify} of a LocalFile sink writing Parquet, JSONL or CSV, after a real {@code
 * sync --once} of the table of mixed types: equal (exit 0), also with a Parquet file no commit
 * record lists beside the committed ones (never read), then the committed files rewritten with a
 * row deleted, one duplicated, one changed, one value set to NULL and one added: exactly those keys
 * (exit 1).
 */
class VerifyFileITCase {
    private static final int ROWS = 3000;

    @TempDir Path dir;

    private TestPostgres pg;

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_verify_files_");
        pg.exec(VerifyCli.mixedTable(ROWS, "5e-324"));
    }

    @AfterEach
    void tearDown() throws SQLException {
        pg.close();
    }

    private void config(String format) throws IOException {
        config(format, "");
    }

    /** {@code more}: further settings of the sink, each line indented by six spaces. */
    private void config(String format, String more) throws IOException {
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n"
                        + "  mixed:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.files\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("mixed", null)
                        + "data_sinks:\n  files:\n    LocalFile:\n      path: "
                        + dir.resolve("out")
                        + "\n      format: "
                        + format
                        + "\n"
                        + more);
    }

    private CliRun verify() {
        return VerifyCli.verify(dir, "mixed");
    }

    @Test
    void parquetFilesAreEqualThenBrokenKeysAreNamed() throws Exception {
        config("parquet");
        CliRun sync = VerifyCli.syncOnce(dir, "mixed");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        List<String> committed = new CommitLog(dir.resolve("out")).committedFiles();
        assertThat(committed).isNotEmpty().allMatch(f -> f.contains("/mixed/"));

        // a file in the stream's folder that no commit record lists (a run that died before
        // its commit) is not read: its rows would be duplicates
        Path first = Path.of(committed.get(0));
        Files.copy(first, first.resolveSibling("mixed-999999-000-000000-000000.parquet"));
        CliRun equal = verify();
        assertThat(equal.exitCode()).as(equal.all()).isZero();
        assertThat(equal.out()).isEqualTo(VerifyCli.MIXED_EQUAL);

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = c.createStatement()) {
            for (String file : committed) {
                String f = "'" + file + "'";
                Path rewritten = Path.of(file + ".rewritten");
                s.execute(
                        "COPY (SELECT * REPLACE (CASE WHEN id = 30 THEN 'changed' ELSE note END"
                                + " AS note, CASE WHEN id = 40 THEN NULL ELSE amount END AS"
                                + " amount) FROM read_parquet("
                                + f
                                + ") WHERE id <> 10 UNION ALL SELECT * FROM read_parquet("
                                + f
                                + ") WHERE id = 20 UNION ALL SELECT * REPLACE (100000 AS id)"
                                + " FROM read_parquet("
                                + f
                                + ") WHERE id = 50) TO '"
                                + rewritten
                                + "' (FORMAT parquet)");
                Files.move(rewritten, Path.of(file), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        CliRun broken = verify();
        assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
        assertThat(broken.out()).isEqualTo(VerifyCli.MIXED_BROKEN);

        // committed files gone: each named on stderr, their rows missing (DuckDB failed before)
        for (String file : committed) {
            Files.delete(Path.of(file));
        }
        CliRun gone = verify();
        assertThat(gone.exitCode()).as(gone.all()).isEqualTo(1);
        assertThat(gone.out()).isEqualTo(allMissing());
        Path out = dir.resolve("out");
        for (String file : committed) {
            assertThat(gone.err())
                    .contains(
                            "verify: mixed: "
                                    + out.relativize(Path.of(file))
                                    + " is listed by the commit log but not in "
                                    + out
                                    + ": its rows are not read");
        }
    }

    /**
     * The text formats: {@code jsonl} plain (JsonlTableTest reads gzip), {@code csv}
     * gzip-compressed. Beside the mixed table's values: a numeric(38,10) of 38 digits (the key
     * changed in its last digit, which a double cannot tell), texts with commas, quotes, an
     * apostrophe, a backslash, leading and trailing spaces and the word NULL, a jsonb with escapes,
     * json and jsonb values that are JSON's null, and a json value with line breaks between tokens.
     */
    @Test
    void jsonlFilesAreEqualThenBrokenKeysAreNamed() throws Exception {
        textFilesAreEqualThenBrokenKeysAreNamed("jsonl", "none", "{\"id\":", "\"amount\":", "null");
    }

    @Test
    void csvFilesAreEqualThenBrokenKeysAreNamed() throws Exception {
        textFilesAreEqualThenBrokenKeysAreNamed("csv", "gzip", "", "", "");
    }

    private static final String WIDE = "1234567890123456789012345678.0123456789";

    /**
     * @param id what a record starts with before its id
     * @param amount what stands before the amount, which follows the id
     * @param none a NULL as the format writes it
     */
    private void textFilesAreEqualThenBrokenKeysAreNamed(
            String format, String compression, String id, String amount, String none)
            throws Exception {
        pg.exec(
                "ALTER TABLE mixed ADD COLUMN wide numeric(38,10)",
                "UPDATE mixed SET wide = " + WIDE + " WHERE id > 1",
                "UPDATE mixed SET note = 'comma, \"quoted\", it''s a back\\slash' WHERE id = 6",
                "UPDATE mixed SET note = ' padded ', tags = '{\"k\": \"a\\\"b\\n\", \"u\":"
                        + " \"\u00e9\"}' WHERE id = 7",
                "UPDATE mixed SET note = 'NULL' WHERE id = 8",
                // JSONL writes JSON's null as it writes a NULL: compared as NULL there
                "UPDATE mixed SET doc = 'null', tags = 'null' WHERE id = 9",
                // json keeps its line breaks between tokens; JSONL writes them as spaces
                "UPDATE mixed SET doc = E'{\\r\\n  \"a\": [1,\\n 2]\\n}' WHERE id = 11");
        config(format, "      compression: " + compression + "\n");
        CliRun sync = VerifyCli.syncOnce(dir, "mixed");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        String extension = compression.equals("gzip") ? format + ".gz" : format;
        List<String> committed = new CommitLog(dir.resolve("out")).committedFiles();
        assertThat(committed).isNotEmpty().allMatch(f -> f.endsWith("." + extension));

        CliRun equal = verify();
        assertThat(equal.exitCode()).as(equal.all()).isZero();
        assertThat(equal.out()).isEqualTo(VerifyCli.MIXED_EQUAL);

        // key 10 deleted, 20 duplicated, 30's wide changed in its last digit, 40's amount NULL,
        // 100000 added as a copy of 50
        String separator = format.equals("csv") ? "\r\n" : "\n";
        for (String file : committed) {
            List<String> records = new ArrayList<>();
            for (String r : read(Path.of(file)).split(separator, -1)) {
                if (r.startsWith(id + "10,")) {
                    continue;
                }
                if (r.startsWith(id + "20,")) {
                    records.add(r);
                } else if (r.startsWith(id + "30,")) {
                    r = r.replace(WIDE, WIDE.substring(0, WIDE.length() - 1) + "8");
                } else if (r.startsWith(id + "40,")) {
                    r = r.replace(id + "40," + amount + "60.00,", id + "40," + amount + none + ",");
                } else if (r.startsWith(id + "50,")) {
                    records.add(id + "100000," + r.substring((id + "50,").length()));
                }
                records.add(r);
            }
            write(Path.of(file), String.join(separator, records));
        }
        CliRun broken = verify();
        assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
        assertThat(broken.out()).isEqualTo(VerifyCli.MIXED_BROKEN);
    }

    private static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes =
                    file.toString().endsWith(".gz")
                            ? new GZIPInputStream(in).readAllBytes()
                            : in.readAllBytes();
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static void write(Path file, String text) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            if (file.toString().endsWith(".gz")) {
                try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                    gzip.write(bytes);
                }
            } else {
                out.write(bytes);
            }
        }
    }

    @Test
    void aStreamWithoutCommittedFilesIsAllMissing() throws Exception {
        config("parquet");
        Path folder = dir.resolve("out").resolve("mixed");
        Files.createDirectories(folder);
        CliRun never = verify();
        assertThat(never.exitCode()).as(never.all()).isEqualTo(1);
        assertThat(never.out()).isEqualTo(allMissing());
    }

    /** What verify prints when the stream's folder {@code out/mixed} holds no committed file. */
    private String allMissing() {
        return "stream  source rows  destination rows  missing  extra  duplicated"
                + "  different  not yet synced\n"
                + "mixed          3000                 0     3000      0"
                + "           0          0               0\n"
                + "mixed: destination table "
                + dir.resolve("out").resolve("mixed")
                + " does not exist\n"
                + "mixed: missing keys: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2990"
                + " more\n"
                + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n";
    }
}
