package io.skippr.sinks.glue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.AlreadyExistsException;
import software.amazon.awssdk.services.glue.model.BatchCreatePartitionResponse;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.GetTablesResponse;
import software.amazon.awssdk.services.glue.model.GlueException;
import software.amazon.awssdk.services.glue.model.InvalidInputException;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/** The fake Glue server, driven by the official AWS SDK client as production code drives Glue. */
class FakeGlueServerTest {
    private FakeGlueServer server;
    private GlueClient glue;

    @BeforeEach
    void start() {
        server = FakeGlueServer.start();
        glue =
                GlueClient.builder()
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .region(Region.EU_WEST_1)
                        .endpointOverride(URI.create(server.endpoint()))
                        .credentialsProvider(
                                StaticCredentialsProvider.create(
                                        AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                        .build();
    }

    @AfterEach
    void stop() {
        glue.close();
        server.close();
    }

    private static TableInput ordersTable(String... columns) {
        List<Column> cols = new ArrayList<>();
        for (String c : columns) {
            cols.add(Column.builder().name(c).type("string").build());
        }
        return TableInput.builder()
                .name("Orders")
                .tableType("EXTERNAL_TABLE")
                .parameters(Map.of("classification", "parquet", "metadata_location", "s3://m/1"))
                .partitionKeys(Column.builder().name("dt").type("string").build())
                .storageDescriptor(
                        StorageDescriptor.builder()
                                .location("s3://lake/bronze/orders/")
                                .columns(cols)
                                .serdeInfo(
                                        SerDeInfo.builder()
                                                .serializationLibrary("ParquetSerDe")
                                                .build())
                                .build())
                .build();
    }

    @Test
    void aMissingDatabaseIsEntityNotFoundWithGluesMessage() {
        assertThatThrownBy(() -> glue.getDatabase(b -> b.name("bronze")))
                .isInstanceOf(EntityNotFoundException.class)
                .hasMessageStartingWith("Database bronze not found.")
                .satisfies(
                        e -> assertThat(((EntityNotFoundException) e).statusCode()).isEqualTo(400));
    }

    @Test
    void databasesAreCreatedOnceUnderLowerCaseNames() {
        glue.createDatabase(b -> b.databaseInput(d -> d.name("Bronze").description("lake")));
        assertThatThrownBy(() -> glue.createDatabase(b -> b.databaseInput(d -> d.name("bronze"))))
                .isInstanceOf(AlreadyExistsException.class)
                .hasMessageStartingWith("Database already exists.");
        assertThat(glue.getDatabase(b -> b.name("BRONZE")).database().description())
                .isEqualTo("lake");
        assertThat(glue.getDatabases(b -> {}).databaseList()).hasSize(1);
        assertThat(server.databases()).containsExactly("bronze");
    }

    @Test
    void aTableKeepsItsInputVerbatimAndGetsGluesAdditions() {
        glue.createDatabase(b -> b.databaseInput(d -> d.name("bronze")));
        glue.createTable(b -> b.databaseName("bronze").tableInput(ordersTable("id")));

        Table table = glue.getTable(b -> b.databaseName("bronze").name("orders")).table();
        assertThat(table.name()).isEqualTo("orders");
        assertThat(table.databaseName()).isEqualTo("bronze");
        assertThat(table.tableType()).isEqualTo("EXTERNAL_TABLE");
        assertThat(table.parameters())
                .containsEntry("classification", "parquet")
                .containsEntry("metadata_location", "s3://m/1");
        assertThat(table.partitionKeys()).extracting(Column::name).containsExactly("dt");
        assertThat(table.storageDescriptor().location()).isEqualTo("s3://lake/bronze/orders/");
        assertThat(table.storageDescriptor().serdeInfo().serializationLibrary())
                .isEqualTo("ParquetSerDe");
        assertThat(table.versionId()).isEqualTo("1");
        assertThat(table.createTime()).isNotNull();
        assertThat(server.tables("bronze")).containsExactly("orders");

        assertThatThrownBy(
                        () ->
                                glue.createTable(
                                        b -> b.databaseName("bronze").tableInput(ordersTable())))
                .isInstanceOf(AlreadyExistsException.class)
                .hasMessageStartingWith("Table already exists.");
        assertThatThrownBy(() -> glue.getTable(b -> b.databaseName("bronze").name("items")))
                .isInstanceOf(EntityNotFoundException.class)
                .hasMessageStartingWith("Table items not found.");
    }

    @Test
    void anUpdateWithAStaleVersionIdIsAConcurrentModification() {
        glue.createDatabase(b -> b.databaseInput(d -> d.name("bronze")));
        glue.createTable(b -> b.databaseName("bronze").tableInput(ordersTable("id")));

        glue.updateTable(
                b -> b.databaseName("bronze").versionId("1").tableInput(ordersTable("id", "a")));
        assertThatThrownBy(
                        () ->
                                glue.updateTable(
                                        b ->
                                                b.databaseName("bronze")
                                                        .versionId("1")
                                                        .tableInput(ordersTable("id", "b"))))
                .isInstanceOf(ConcurrentModificationException.class)
                .hasMessageStartingWith("Update table failed due to concurrent modifications.");

        Table table = glue.getTable(b -> b.databaseName("bronze").name("orders")).table();
        assertThat(table.versionId()).isEqualTo("2");
        assertThat(table.storageDescriptor().columns())
                .extracting(Column::name)
                .containsExactly("id", "a");
        glue.updateTable(
                b ->
                        b.databaseName("bronze")
                                .skipArchive(true)
                                .tableInput(ordersTable("id", "a", "c")));
        assertThat(
                        glue.getTableVersions(b -> b.databaseName("bronze").tableName("orders"))
                                .tableVersions())
                .extracting(v -> v.versionId())
                .containsExactly("3", "1");
        assertThat(server.calls()).contains("UpdateTable -> ConcurrentModificationException");
    }

    @Test
    void getTablesPagesAndFiltersByPattern() {
        glue.createDatabase(b -> b.databaseInput(d -> d.name("bronze")));
        for (int i = 0; i < 5; i++) {
            String name = "t" + i;
            glue.createTable(
                    b ->
                            b.databaseName("bronze")
                                    .tableInput(ordersTable().toBuilder().name(name).build()));
        }
        List<String> names = new ArrayList<>();
        String token = null;
        do {
            String next = token;
            GetTablesResponse page =
                    glue.getTables(b -> b.databaseName("bronze").maxResults(2).nextToken(next));
            page.tableList().forEach(t -> names.add(t.name()));
            token = page.nextToken();
        } while (token != null);
        assertThat(names).containsExactly("t0", "t1", "t2", "t3", "t4");
        assertThat(glue.getTables(b -> b.databaseName("bronze").expression("t[13]")).tableList())
                .extracting(Table::name)
                .containsExactly("t1", "t3");

        glue.deleteTable(b -> b.databaseName("bronze").name("t0"));
        assertThat(server.tables("bronze")).containsExactly("t1", "t2", "t3", "t4");
    }

    @Test
    void batchCreatePartitionReportsExistingOnesPerEntry() {
        glue.createDatabase(b -> b.databaseInput(d -> d.name("bronze")));
        glue.createTable(b -> b.databaseName("bronze").tableInput(ordersTable("id")));
        glue.createPartition(
                b ->
                        b.databaseName("bronze")
                                .tableName("orders")
                                .partitionInput(partition("2026-11-29")));

        BatchCreatePartitionResponse response =
                glue.batchCreatePartition(
                        b ->
                                b.databaseName("bronze")
                                        .tableName("orders")
                                        .partitionInputList(
                                                partition("2026-11-29"), partition("2026-11-30")));

        assertThat(response.errors()).hasSize(1);
        assertThat(response.errors().get(0).partitionValues()).containsExactly("2026-11-29");
        assertThat(response.errors().get(0).errorDetail().errorCode())
                .isEqualTo("AlreadyExistsException");
        assertThat(server.partitions("bronze", "orders"))
                .containsExactly(List.of("2026-11-29"), List.of("2026-11-30"));
        assertThat(
                        glue.getPartition(
                                        b ->
                                                b.databaseName("bronze")
                                                        .tableName("orders")
                                                        .partitionValues("2026-11-30"))
                                .partition()
                                .storageDescriptor()
                                .location())
                .isEqualTo("s3://lake/bronze/orders/dt=2026-11-30/");
        assertThat(
                        glue.getPartitions(
                                        b ->
                                                b.databaseName("bronze")
                                                        .tableName("orders")
                                                        .expression("dt = '2026-11-30'"))
                                .partitions())
                .hasSize(1);
        assertThatThrownBy(
                        () ->
                                glue.getPartition(
                                        b ->
                                                b.databaseName("bronze")
                                                        .tableName("orders")
                                                        .partitionValues("2026-12-01")))
                .isInstanceOf(EntityNotFoundException.class)
                .hasMessageStartingWith("Partition not found.");
    }

    private static PartitionInput partition(String day) {
        return PartitionInput.builder()
                .values(day)
                .storageDescriptor(
                        StorageDescriptor.builder()
                                .location("s3://lake/bronze/orders/dt=" + day + "/")
                                .build())
                .build();
    }

    @Test
    void anOperationItDoesNotImplementIsRefused() {
        assertThatThrownBy(
                        () ->
                                glue.getPartitionIndexes(
                                        b -> b.databaseName("bronze").tableName("orders")))
                .isInstanceOf(GlueException.class)
                .hasMessageStartingWith(
                        "FakeGlueServer does not implement AWSGlue.GetPartitionIndexes");
        assertThat(server.calls())
                .containsExactly("GetPartitionIndexes -> UnknownOperationException");
    }

    /**
     * A request field, or a field of a table, storage descriptor or database input, that the fake
     * does not model changes what Glue would do (a transaction, an Iceberg table format, a resource
     * link, a schema registry reference, another account's catalog): each is refused with an error
     * the SDK raises, and nothing is created. The other tests here and {@code GlueTableCatalogTest}
     * show the requests the SDK and the sink really send are served.
     */
    @Test
    void fieldsItDoesNotModelAreRefusedAndChangeNothing() {
        glue.createDatabase(b -> b.databaseInput(d -> d.name("bronze")));
        TableInput orders = ordersTable("id");
        List<Runnable> refused =
                List.of(
                        () ->
                                glue.createTable(
                                        b ->
                                                b.databaseName("bronze")
                                                        .tableInput(orders)
                                                        .openTableFormatInput(
                                                                o ->
                                                                        o.icebergInput(
                                                                                i ->
                                                                                        i
                                                                                                .metadataOperation(
                                                                                                        "CREATE")))),
                        () ->
                                glue.createTable(
                                        b ->
                                                b.databaseName("bronze")
                                                        .tableInput(
                                                                orders.toBuilder()
                                                                        .targetTable(
                                                                                t ->
                                                                                        t.databaseName(
                                                                                                        "other")
                                                                                                .name(
                                                                                                        "orders"))
                                                                        .build())),
                        () ->
                                glue.createTable(
                                        b ->
                                                b.databaseName("bronze")
                                                        .tableInput(
                                                                orders.toBuilder()
                                                                        .storageDescriptor(
                                                                                orders
                                                                                        .storageDescriptor()
                                                                                        .toBuilder()
                                                                                        .schemaReference(
                                                                                                r ->
                                                                                                        r
                                                                                                                .schemaVersionId(
                                                                                                                        "v-1"))
                                                                                        .build())
                                                                        .build())),
                        () ->
                                glue.createTable(
                                        b ->
                                                b.catalogId("123456789012")
                                                        .databaseName("bronze")
                                                        .tableInput(orders)),
                        () ->
                                glue.getTable(
                                        b ->
                                                b.databaseName("bronze")
                                                        .name("orders")
                                                        .transactionId("t1")));
        List<String> messages = new ArrayList<>();
        for (Runnable request : refused) {
            assertThatThrownBy(request::run)
                    .isInstanceOf(InvalidInputException.class)
                    .satisfies(e -> messages.add(e.getMessage().replaceAll(" \\(Service.*", "")));
        }
        assertThat(messages)
                .containsExactly(
                        "FakeGlueServer does not model CreateTable.OpenTableFormatInput"
                                + " (in AWSGlue.CreateTable)",
                        "FakeGlueServer does not model TableInput.TargetTable"
                                + " (in AWSGlue.CreateTable)",
                        "FakeGlueServer does not model StorageDescriptor.SchemaReference"
                                + " (in AWSGlue.CreateTable)",
                        "FakeGlueServer holds only catalog 000000000000, not 123456789012",
                        "FakeGlueServer does not model GetTable.TransactionId"
                                + " (in AWSGlue.GetTable)");
        assertThat(server.tables("bronze")).as("nothing was created").isEmpty();

        glue.createTable(
                b -> b.catalogId("000000000000").databaseName("bronze").tableInput(orders));
        assertThat(server.tables("bronze")).containsExactly("orders");
    }

    @Test
    void anAmzHeaderItDoesNotReadIsRefused() {
        assertThatThrownBy(
                        () ->
                                glue.getDatabases(
                                        b ->
                                                b.overrideConfiguration(
                                                        o ->
                                                                o.putHeader(
                                                                        "x-amz-expected-bucket-owner",
                                                                        "123456789012"))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith(
                        "FakeGlueServer does not model the header x-amz-expected-bucket-owner");
        assertThat(glue.getDatabases(b -> {}).databaseList()).isEmpty();
    }

    /**
     * The check the Athena tests make of where partitions point: a file's partition must be
     * registered at the folder holding it. A mutant registers the partition at the table's folder
     * (Athena would then read the partition as holding no file), another leaves it unregistered:
     * each turns the check red.
     */
    @Test
    void partitionsMustBeRegisteredAtTheFolderHoldingTheirFiles() {
        glue.createDatabase(b -> b.databaseInput(d -> d.name("bronze")));
        glue.createTable(b -> b.databaseName("bronze").tableInput(ordersTable("id")));
        String file = "s3://lake/bronze/orders/dt=2026-11-30/orders-1.parquet";

        assertThatThrownBy(() -> server.assertPartitionsHold("bronze", "orders", List.of(file)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("Glue has no partition [2026-11-30] of table orders for " + file);

        glue.createPartition(
                b ->
                        b.databaseName("bronze")
                                .tableName("orders")
                                .partitionInput(
                                        partition("2026-11-30").toBuilder()
                                                .storageDescriptor(
                                                        s -> s.location("s3://lake/bronze/orders/"))
                                                .build()));
        assertThatThrownBy(() -> server.assertPartitionsHold("bronze", "orders", List.of(file)))
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        "Glue's partition [2026-11-30] of table orders reads"
                                + " s3://lake/bronze/orders/, but its file "
                                + file
                                + " is in s3://lake/bronze/orders/dt=2026-11-30/");

        glue.deletePartition(
                b -> b.databaseName("bronze").tableName("orders").partitionValues("2026-11-30"));
        glue.createPartition(
                b ->
                        b.databaseName("bronze")
                                .tableName("orders")
                                .partitionInput(partition("2026-11-30")));
        server.assertPartitionsHold("bronze", "orders", List.of(file));
        assertThatThrownBy(
                        () ->
                                server.assertPartitionsHold(
                                        "bronze",
                                        "orders",
                                        List.of("s3://lake/silver/orders/dt=2026-11-30/x.parquet")))
                .hasMessageContaining("is not under the Location s3://lake/bronze/orders/");
    }

    @Test
    void anUnsignedRequestIsRefused() throws Exception {
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                                        .header("X-Amz-Target", "AWSGlue.GetDatabases")
                                        .header("Content-Type", "application/x-amz-json-1.1")
                                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .isEqualTo(
                        "{\"__type\":\"MissingAuthenticationTokenException\","
                                + "\"Message\":\"Missing Authentication Token\"}");
    }
}
