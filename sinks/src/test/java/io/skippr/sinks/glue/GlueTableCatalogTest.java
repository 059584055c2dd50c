package io.skippr.sinks.glue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * The Glue schema sink against the fake Glue server: what it creates, what it adds, what it
 * refuses, and that replays and parallel writers leave one consistent table.
 */
class GlueTableCatalogTest {
    private static final StreamSchema ORDERS =
            new StreamSchema(
                    "Orders",
                    List.of(
                            Column.of("id", DataType.INT64),
                            Column.of("Amount", DataType.decimal(10, 2))),
                    List.of("id"));

    private FakeGlueServer glue;

    @BeforeEach
    void start() {
        glue = FakeGlueServer.start();
    }

    @AfterEach
    void stop() {
        glue.close();
    }

    private GlueConnection connection() {
        return GlueConnection.of("eu-west-1", glue.endpoint()).withKeys("AKIDEXAMPLE", "secret");
    }

    private GlueTableCatalog catalog() {
        return new GlueTableCatalog(
                connection(), "Bronze", "acme-lake", "/bronze/orders/", List.of("dt"));
    }

    private JsonNode table(String name) {
        return glue.table("bronze", name).orElseThrow();
    }

    private static Map<String, String> columns(JsonNode table) {
        Map<String, String> columns = new LinkedHashMap<>();
        for (JsonNode c : table.path("StorageDescriptor").path("Columns")) {
            columns.put(c.path("Name").asText(), c.path("Type").asText());
        }
        return columns;
    }

    @Test
    void theFirstFileCreatesTheDatabaseTheTableAndItsPartition() throws IOException {
        catalog().prepare(ORDERS, "dt=2026-11-29");

        assertThat(glue.databases()).containsExactly("bronze");
        assertThat(glue.tables("bronze")).containsExactly("orders");
        JsonNode table = table("orders");
        assertThat(table.path("TableType").asText()).isEqualTo("EXTERNAL_TABLE");
        assertThat(table.path("Parameters").path("classification").asText()).isEqualTo("parquet");
        assertThat(table.path("PartitionKeys").toString())
                .isEqualTo("[{\"Name\":\"dt\",\"Type\":\"string\"}]");
        JsonNode sd = table.path("StorageDescriptor");
        assertThat(sd.path("Location").asText()).isEqualTo("s3://acme-lake/bronze/orders/orders/");
        assertThat(sd.path("InputFormat").asText())
                .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
        assertThat(sd.path("OutputFormat").asText())
                .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat");
        assertThat(sd.path("SerdeInfo").path("SerializationLibrary").asText())
                .isEqualTo("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
        assertThat(columns(table))
                .containsExactly(
                        Map.entry("id", "bigint"),
                        Map.entry("amount", "decimal(10,2)"),
                        Map.entry("_skippr_id", "string"),
                        Map.entry("_skippr_synced_at", "timestamp"));
        assertThat(glue.partitions("bronze", "orders")).containsExactly(List.of("2026-11-29"));
    }

    @Test
    void everySkipprTypeGetsTheHiveTypeOfWhatTheParquetWriterStores() throws IOException {
        List<Column> all = new ArrayList<>();
        for (DataType.Kind kind : DataType.Kind.values()) {
            all.add(Column.of("c_" + kind.name().toLowerCase(), DataType.of(kind)));
        }
        all.add(Column.of("c_decimal_38", DataType.decimal(38, 6)));
        all.add(Column.of("c_decimal_39", DataType.decimal(39, 6)));
        catalog().prepare(new StreamSchema("types", all, List.of()), "dt=2026-11-29");

        assertThat(columns(table("types")))
                .containsExactly(
                        Map.entry("c_boolean", "boolean"),
                        Map.entry("c_int16", "smallint"),
                        Map.entry("c_int32", "int"),
                        Map.entry("c_int64", "bigint"),
                        Map.entry("c_float32", "float"),
                        Map.entry("c_float64", "double"),
                        Map.entry("c_decimal", "string"),
                        Map.entry("c_string", "string"),
                        Map.entry("c_json", "string"),
                        Map.entry("c_uuid", "binary"),
                        Map.entry("c_bytes", "binary"),
                        Map.entry("c_date", "date"),
                        Map.entry("c_time", "bigint"),
                        Map.entry("c_timestamp", "timestamp"),
                        Map.entry("c_timestamp_tz", "timestamp"),
                        Map.entry("c_decimal_38", "decimal(38,6)"),
                        Map.entry("c_decimal_39", "string"),
                        Map.entry("_skippr_id", "string"),
                        Map.entry("_skippr_synced_at", "timestamp"));
    }

    @Test
    void aColumnAddedAtTheSourceIsAddedToTheTableAndToNewPartitions() throws IOException {
        GlueTableCatalog catalog = catalog();
        catalog.prepare(ORDERS, "dt=2026-11-29");
        StreamSchema grown = ORDERS.withColumns(List.of(Column.of("Note", DataType.STRING)));
        catalog.prepare(grown, "dt=2026-11-29");
        catalog.prepare(grown, "dt=2026-11-30");

        JsonNode table = table("orders");
        assertThat(columns(table).keySet())
                .containsExactly("id", "amount", "_skippr_id", "_skippr_synced_at", "note");
        assertThat(table.path("VersionId").asText()).isEqualTo("2");
        assertThat(glue.partitions("bronze", "orders"))
                .containsExactly(List.of("2026-11-29"), List.of("2026-11-30"));

        // an older writer still on the first schema version changes nothing
        catalog().prepare(ORDERS, "dt=2026-11-30");
        assertThat(table("orders").path("VersionId").asText()).isEqualTo("2");
    }

    @Test
    void aColumnThatWouldChangeTypeIsRefusedNamingTableColumnAndBothTypes() throws IOException {
        catalog().prepare(ORDERS, "dt=2026-11-29");
        StreamSchema changed =
                new StreamSchema(
                        "Orders",
                        List.of(
                                Column.of("id", DataType.INT64),
                                Column.of("Amount", DataType.FLOAT64)),
                        List.of("id"));

        assertThatThrownBy(() -> catalog().prepare(changed, "dt=2026-11-29"))
                .isInstanceOf(GlueSchemaConflictException.class)
                .hasMessage(
                        "Cannot write stream Orders into Glue table bronze.orders: column amount"
                                + " is decimal(10,2) there, and the stream now writes it as"
                                + " double. The Glue schema sink adds columns but never changes a"
                                + " column's type: change the column in Glue yourself, or drop"
                                + " the table so that Skippr creates it again.");
        assertThat(columns(table("orders"))).containsEntry("amount", "decimal(10,2)");
        assertThat(table("orders").path("VersionId").asText()).isEqualTo("1");
    }

    @Test
    void aReplayAfterARestoreChangesNothing() throws Exception {
        GlueTableCatalog catalog = catalog();
        catalog.prepare(ORDERS, "dt=2026-11-29");
        int calls = glue.calls().size();
        catalog.prepare(ORDERS, "dt=2026-11-29");
        assertThat(glue.calls()).hasSize(calls); // remembered: no second round trip

        // a restored writer: the catalog deserialized, knowing nothing
        GlueTableCatalog restored = InstantiationUtil.clone(catalog, getClass().getClassLoader());
        restored.prepare(ORDERS, "dt=2026-11-29");

        assertThat(table("orders").path("VersionId").asText()).isEqualTo("1");
        assertThat(glue.partitions("bronze", "orders")).containsExactly(List.of("2026-11-29"));
        assertThat(glue.calls().subList(calls, glue.calls().size()))
                .containsExactly(
                        "GetDatabase", "GetTable", "BatchCreatePartition"); // already there: fine
    }

    @Test
    void aConcurrentUpdateBetweenReadAndWriteIsRetriedAndBothColumnsLand() throws IOException {
        catalog().prepare(ORDERS, "dt=2026-11-29");
        StreamSchema withNote = ORDERS.withColumns(List.of(Column.of("note", DataType.STRING)));
        StreamSchema withTag = ORDERS.withColumns(List.of(Column.of("tag", DataType.STRING)));
        // another writer adds "tag" after this one read the table and before it updates it
        glue.beforeNext(
                "UpdateTable",
                () -> {
                    try {
                        catalog().prepare(withTag, "dt=2026-11-29");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });

        catalog().prepare(withNote, "dt=2026-11-29");

        assertThat(glue.calls()).contains("UpdateTable -> ConcurrentModificationException");
        assertThat(columns(table("orders")).keySet())
                .containsExactly("id", "amount", "_skippr_id", "_skippr_synced_at", "tag", "note");
        assertThat(table("orders").path("VersionId").asText()).isEqualTo("3");
    }

    @Test
    void parallelWritersCreateOneTableWithEveryColumnAndEachPartitionOnce() throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            StreamSchema schema =
                    ORDERS.withColumns(List.of(Column.of("extra_" + w, DataType.INT32)));
            String day = "dt=2026-11-" + (28 + w % 3);
            done.add(
                    pool.submit(
                            () -> {
                                go.await();
                                catalog().prepare(schema, day);
                                return null;
                            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(glue.databases()).containsExactly("bronze");
        assertThat(glue.tables("bronze")).containsExactly("orders");
        Map<String, String> columns = columns(table("orders"));
        assertThat(columns).hasSize(4 + writers);
        for (int w = 0; w < writers; w++) {
            assertThat(columns).containsEntry("extra_" + w, "int");
        }
        assertThat(glue.partitions("bronze", "orders"))
                .containsExactlyInAnyOrder(
                        List.of("2026-11-28"), List.of("2026-11-29"), List.of("2026-11-30"));
    }

    @Test
    void aTableThatReadsAnotherLocationIsRefused() throws IOException {
        try (GlueClient client = connection().open()) {
            client.createDatabase(b -> b.databaseInput(d -> d.name("bronze")));
            client.createTable(
                    b ->
                            b.databaseName("bronze")
                                    .tableInput(
                                            GlueTables.newTable(
                                                    "orders",
                                                    "s3://other-bucket/orders/",
                                                    GlueColumns.of(ORDERS),
                                                    List.of("dt"))));
        }
        assertThatThrownBy(() -> catalog().prepare(ORDERS, "dt=2026-11-29"))
                .isInstanceOf(GlueSchemaConflictException.class)
                .hasMessage(
                        "Cannot write stream Orders into Glue table bronze.orders: the table reads"
                                + " s3://other-bucket/orders/, and the sink writes"
                                + " s3://acme-lake/bronze/orders/orders/. Drop or rename that"
                                + " table, or give the sink another glue_database_name.");
    }

    @Test
    void anUnreachableGlueNamesTheEndpointAndWhatWasBeingDone() {
        String endpoint = glue.endpoint();
        glue.close();
        GlueTableCatalog catalog =
                new GlueTableCatalog(
                        GlueConnection.of("eu-west-1", endpoint).withKeys("AKIDEXAMPLE", "secret"),
                        "bronze",
                        "acme-lake",
                        "",
                        List.of("dt"));
        assertThatThrownBy(() -> catalog.prepare(ORDERS, "dt=2026-11-29"))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "reading Glue database bronze failed: Glue at "
                                + endpoint
                                + " could not be reached or no credentials were found");
    }
}
