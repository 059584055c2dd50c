package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import io.skippr.sinks.files.CommitLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd verify} of a LocalFile sink writing Parquet, after a real {@code sync --once} of
 * the table of mixed types: equal (exit 0), also with a Parquet file no commit record lists beside
 * the committed ones (never read), then the committed files rewritten with a row deleted, one
 * duplicated, one changed, one value set to NULL and one added: exactly those keys (exit 1).
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
                        + "\n");
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
    }

    @Test
    void aStreamWithoutCommittedFilesIsAllMissingAndTextFormatsAreRefused() throws Exception {
        config("parquet");
        Path folder = dir.resolve("out").resolve("mixed");
        Files.createDirectories(folder);
        CliRun never = verify();
        assertThat(never.exitCode()).as(never.all()).isEqualTo(1);
        assertThat(never.out())
                .isEqualTo(
                        "stream  source rows  destination rows  missing  extra  duplicated"
                                + "  different  not yet synced\n"
                                + "mixed          3000                 0     3000      0"
                                + "           0          0               0\n"
                                + "mixed: destination table "
                                + folder
                                + " does not exist\n"
                                + "mixed: missing keys: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2990"
                                + " more\n"
                                + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n");

        config("jsonl");
        assertThat(verify())
                .isEqualTo(
                        new CliRun(
                                2,
                                "",
                                "error: pipeline 'mixed' loads data_sinks.files (LocalFile, format"
                                        + " jsonl); skipprd verify reads LocalFile data sinks"
                                        + " writing parquet only in this version\n"));
    }
}
