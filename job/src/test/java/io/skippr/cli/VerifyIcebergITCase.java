package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.job.TestEnv;
import io.skippr.job.TestPostgres;
import io.skippr.sinks.athenaiceberg.AthenaIcebergCatalog;
import io.skippr.sinks.glue.FakeGlueServer;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.skipprlake.SkipprLakeCatalog;
import java.io.Closeable;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.TypeUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code skipprd verify} of a SkipprLake (embedded catalog, local warehouse) loaded with {@code
 * write_mode: merge} by a real {@code sync --once} of the table of mixed types: equal (exit 0);
 * then the table broken through the Iceberg API in one row delta (key 10 removed by a position
 * delete, 20 appended again, 30 and 40 replaced through equality deletes by a changed note and a
 * NULL amount, 100000 added, 60 given a second, older version): exactly those keys (exit 1), so the
 * reader applied both kinds of delete, as a merge table needs; and read as an append (the
 * pipeline's write_mode changed), 60's older version is no longer counted; with the table dropped,
 * every key is missing. The same for an Athena Iceberg table, appended.
 */
class VerifyIcebergITCase {
    private static final int ROWS = 300;

    private static final String EQUAL =
            "stream source rows destination rows missing extra duplicated different not yet synced\n"
                    + "mixed 300 300 0 0 0 0 0\n"
                    + "All 1 streams of pipeline mixed match.\n";

    /** {@link #breakTable} read as an append: 60's other row is an older version. */
    private static final String APPENDED_BROKEN =
            "stream source rows destination rows missing extra duplicated different not yet synced\n"
                    + "mixed 300 302 1 1 1 2 0\n"
                    + "mixed: missing keys: 10\n"
                    + "mixed: extra keys: 100000\n"
                    + "mixed: duplicated keys: 20\n"
                    + "mixed: different keys: 30, 40\n"
                    + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n";

    @TempDir Path dir;

    private TestPostgres pg;

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_verify_lake_");
        pg.exec(VerifyCli.mixedTable(ROWS, "5e-324"));
    }

    @AfterEach
    void tearDown() throws SQLException {
        pg.close();
    }

    private CliRun verify() {
        return VerifyCli.verify(dir, "mixed");
    }

    /** A catalog nobody answers at: exit 2, naming the sink and the cause, not a stack trace. */
    @Test
    void aCatalogThatCannotBeReachedIsAConfigurationError() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        String catalog = "jdbc:postgresql://127.0.0.1:" + port + "/nowhere";
        String lake =
                "    SkipprLake:\n      warehouse: '"
                        + dir.resolve("lake")
                        + "'\n      catalog_uri: '"
                        + catalog
                        + "'\n";
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  mixed:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.lake\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("mixed", null)
                        + "data_sinks:\n  lake:\n    schema_sink: schema_sinks.lake\n"
                        + lake
                        + "schema_sinks:\n  lake:\n"
                        + lake);

        CliRun unreachable = verify();
        assertThat(unreachable.exitCode()).as(unreachable.all()).isEqualTo(2);
        assertThat(unreachable.err())
                .startsWith(
                        "error: cannot read the data sink: the SkipprLake warehouse "
                                + dir.resolve("lake")
                                + " (catalog "
                                + catalog
                                + ") cannot be reached: PSQLException: Connection to 127.0.0.1:"
                                + port
                                + " refused");
    }

    @Test
    void aMergedLakeTableIsEqualThenBrokenKeysAreNamed() throws Exception {
        String lake = "    SkipprLake:\n      warehouse: '" + dir.resolve("lake") + "'\n";
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  mixed:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.lake\n    write_mode: merge\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("mixed", null)
                        + "data_sinks:\n  lake:\n    schema_sink: schema_sinks.lake\n"
                        + lake
                        + "schema_sinks:\n  lake:\n"
                        + lake);

        CliRun never = verify();
        assertThat(never.exitCode()).as(never.all()).isEqualTo(2);
        assertThat(never.err())
                .isEqualTo(
                        "error: cannot read the data sink: the SkipprLake warehouse "
                                + dir.resolve("lake")
                                + " (catalog jdbc:sqlite:"
                                + dir.resolve("lake").resolve("_skippr_catalog.sqlite")
                                + ") does not exist yet; run skipprd sync --pipeline mixed --once"
                                + " first\n");
        assertThat(dir.resolve("lake")).doesNotExist(); // verify created nothing

        CliRun sync = VerifyCli.syncOnce(dir, "mixed");
        assertThat(sync.exitCode()).as(sync.all()).isZero();

        CliRun equal = verify();
        assertThat(equal.exitCode()).as(equal.all()).isZero();
        assertThat(equal.out().replaceAll(" +", " ")).isEqualTo(EQUAL);

        breakTable(catalog(), TableIdentifier.of("skippr", "mixed"));
        CliRun broken = verify();
        assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
        assertThat(broken.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different not yet synced\n"
                                + "mixed 300 302 1 1 2 2 0\n"
                                + "mixed: missing keys: 10\n"
                                + "mixed: extra keys: 100000\n"
                                + "mixed: duplicated keys: 20, 60\n"
                                + "mixed: different keys: 30, 40\n"
                                + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n");

        // read as an append: 60's other row is an older version, 20's second copy a duplicate
        Path config = dir.resolve("skippr.yml");
        Files.writeString(
                config,
                Files.readString(config).replace("write_mode: merge", "write_mode: append"));
        CliRun appended = verify();
        assertThat(appended.exitCode()).as(appended.all()).isEqualTo(1);
        assertThat(appended.out().replaceAll(" +", " ")).isEqualTo(APPENDED_BROKEN);

        Catalog catalog = catalog();
        try {
            catalog.dropTable(TableIdentifier.of("skippr", "mixed"), false);
        } finally {
            ((Closeable) catalog).close();
        }
        CliRun dropped = verify();
        assertThat(dropped.exitCode()).as(dropped.all()).isEqualTo(1);
        assertThat(dropped.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different not yet synced\n"
                                + "mixed 300 0 300 0 0 0 0\n"
                                + "mixed: destination table skippr.mixed does not exist\n"
                                + "mixed: missing keys: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 290"
                                + " more\n"
                                + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n");
    }

    private Catalog catalog() {
        return SkipprLakeCatalog.of(
                        "test.", dir.resolve("lake").toString(), null, null, null, null, null)
                .open();
    }

    /**
     * An Athena Iceberg table (Glue catalog: a fake Glue server; warehouse on the test S3Proxy),
     * appended by a sync --once: the same reader, through Iceberg's GlueCatalog and S3FileIO.
     */
    @Test
    void anAthenaIcebergTableIsReadThroughGlue() throws Exception {
        String bucket = "skippr-verify-" + UUID.randomUUID().toString().substring(0, 8);
        try (S3Client s3 =
                S3Connection.of(
                                TestEnv.require("SKIPPR_TEST_S3_REGION", "S3Proxy"),
                                TestEnv.require("SKIPPR_TEST_S3_ENDPOINT", "S3Proxy"),
                                true)
                        .withKeys(
                                TestEnv.require("SKIPPR_TEST_S3_ACCESS_KEY", "S3Proxy"),
                                TestEnv.require("SKIPPR_TEST_S3_SECRET_KEY", "S3Proxy"))
                        .open()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
        try (FakeGlueServer glue = FakeGlueServer.start()) {
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("s3_bucket", bucket);
            settings.put("s3_prefix", "lake");
            settings.put("athena_workgroup_name", "primary");
            settings.put("athena_results_s3_bucket", "athena-results");
            settings.put("glue_database_name", "Verify");
            settings.put("glue_endpoint", glue.endpoint());
            settings.put("s3_endpoint", TestEnv.require("SKIPPR_TEST_S3_ENDPOINT", "S3Proxy"));
            settings.put("region", TestEnv.require("SKIPPR_TEST_S3_REGION", "S3Proxy"));
            StringBuilder yaml =
                    new StringBuilder(
                            "pipelines:\n  mixed:\n    data_source: data_sources.app_db\n"
                                    + "    data_sink: data_sinks.athena\n"
                                    + "data_sources:\n  app_db:\n"
                                    + pg.sourceYaml("mixed", null)
                                    + "data_sinks:\n  athena:\n    AthenaIceberg:\n");
            settings.forEach(
                    (k, v) -> yaml.append("      ").append(k).append(": ").append(v).append('\n'));
            Files.writeString(dir.resolve("skippr.yml"), yaml.toString());

            CliRun sync = VerifyCli.syncOnce(dir, "mixed");
            assertThat(sync.exitCode()).as(sync.all()).isZero();
            CliRun equal = verify();
            assertThat(equal.exitCode()).as(equal.all()).isZero();
            assertThat(equal.out().replaceAll(" +", " ")).isEqualTo(EQUAL);

            breakTable(
                    AthenaIcebergCatalog.of("test", new ResolvedSettings(null, settings)).open(),
                    TableIdentifier.of("verify", "mixed"));
            CliRun broken = verify();
            assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
            assertThat(broken.out().replaceAll(" +", " ")).isEqualTo(APPENDED_BROKEN);
        }
    }

    /** One row delta (see the class comment) into table {@code name}; closes the catalog. */
    private static void breakTable(Catalog catalog, TableIdentifier name) throws Exception {
        try {
            Table table = catalog.loadTable(name);
            Schema schema = table.schema();
            Schema withPosition =
                    TypeUtil.join(
                            schema,
                            new Schema(MetadataColumns.FILE_PATH, MetadataColumns.ROW_POSITION));
            Map<Long, Record> rows = new TreeMap<>();
            String fileOf10 = null;
            long positionOf10 = -1;
            try (CloseableIterable<Record> all =
                    IcebergGenerics.read(table).project(withPosition).build()) {
                for (Record r : all) {
                    long id = (Long) r.getField("id");
                    if (id == 10) {
                        fileOf10 = r.getField(MetadataColumns.FILE_PATH.name()).toString();
                        positionOf10 = (Long) r.getField(MetadataColumns.ROW_POSITION.name());
                    }
                    if (id == 20 || id == 30 || id == 40 || id == 50 || id == 60) {
                        GenericRecord row = GenericRecord.create(schema);
                        for (int i = 0; i < schema.columns().size(); i++) {
                            row.set(i, r.getField(schema.columns().get(i).name()));
                        }
                        rows.put(id, row);
                    }
                }
            }
            assertThat(rows).hasSize(5);
            assertThat(fileOf10).isNotNull();
            rows.get(30L).setField("note", "changed");
            rows.get(40L).setField("amount", null);
            rows.get(50L).setField("id", 100000L);
            rows.get(60L).setField("note", "an older version");

            Schema key = schema.select("id");
            GenericFileWriterFactory writers =
                    new GenericFileWriterFactory.Builder(table)
                            .dataSchema(schema)
                            .dataFileFormat(FileFormat.PARQUET)
                            .deleteFileFormat(FileFormat.PARQUET)
                            .equalityFieldIds(new int[] {schema.findField("id").fieldId()})
                            .equalityDeleteRowSchema(key)
                            .build();
            OutputFileFactory files =
                    OutputFileFactory.builderFor(table, 0, 0)
                            .format(FileFormat.PARQUET)
                            .operationId("broken")
                            .build();
            DataWriter<Record> data =
                    writers.newDataWriter(files.newOutputFile(), table.spec(), null);
            try (data) {
                for (Record row : rows.values()) {
                    data.write(row);
                }
            }
            EqualityDeleteWriter<Record> equality =
                    writers.newEqualityDeleteWriter(files.newOutputFile(), table.spec(), null);
            try (equality) {
                for (long id : List.of(30L, 40L)) {
                    GenericRecord k = GenericRecord.create(key);
                    k.setField("id", id);
                    equality.write(k);
                }
            }
            PositionDeleteWriter<Record> position =
                    writers.newPositionDeleteWriter(files.newOutputFile(), table.spec(), null);
            try (position) {
                PositionDelete<Record> delete = PositionDelete.create();
                position.write(delete.set(fileOf10, positionOf10, null));
            }
            List<DeleteFile> deletes = new ArrayList<>();
            deletes.add(equality.toDeleteFile());
            deletes.addAll(position.result().deleteFiles());
            DataFile added = data.toDataFile();
            var delta = table.newRowDelta().addRows(added);
            deletes.forEach(delta::addDeletes);
            delta.commit();
        } finally {
            ((Closeable) catalog).close();
        }
    }
}
