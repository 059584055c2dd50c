package io.skippr.sinks.bigquery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.core.ApiFuture;
import com.google.cloud.bigquery.BigQuery;
import com.google.cloud.bigquery.BigQueryException;
import com.google.cloud.bigquery.DatasetId;
import com.google.cloud.bigquery.DatasetInfo;
import com.google.cloud.bigquery.FieldValueList;
import com.google.cloud.bigquery.QueryJobConfiguration;
import com.google.cloud.bigquery.Schema;
import com.google.cloud.bigquery.StandardTableDefinition;
import com.google.cloud.bigquery.TableId;
import com.google.cloud.bigquery.TableInfo;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteClient;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.StorageError;
import com.google.cloud.bigquery.storage.v1.StreamWriter;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import io.skippr.sinks.bigquery.fake.FakeBigQuery;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Storage Write API as the sink uses it (PENDING streams, explicit offsets, finalize, batch
 * commit), and the fake's refusals, through the official clients against {@link FakeBigQuery}.
 */
class BigQueryWriteITCase {
    private static FakeBigQuery fake;
    private static BigQueryConnect connect;
    private static BigQuery bq;

    @BeforeAll
    static void start() throws Exception {
        fake = FakeBigQuery.start();
        connect = BigQueryConnect.of("kit", "writes", "US", null, fake.url(), fake.writeEndpoint());
        bq = connect.rest();
        bq.create(DatasetInfo.newBuilder(DatasetId.of("kit", "writes")).build());
    }

    @AfterAll
    static void stop() throws Exception {
        fake.close();
    }

    private static TableId table(String name) {
        TableId id = TableId.of("kit", "writes", name);
        bq.create(
                TableInfo.of(
                        id,
                        StandardTableDefinition.of(
                                Schema.of(
                                        WriteStreamLoader.field("name", "STRING"),
                                        WriteStreamLoader.field("n", "INT64")))));
        return id;
    }

    private static ProtoRows rows(Descriptors.Descriptor d, int from, int to) {
        ProtoRows.Builder rows = ProtoRows.newBuilder();
        for (int i = from; i <= to; i++) {
            rows.addSerializedRows(
                    DynamicMessage.newBuilder(d)
                            .setField(d.getFields().get(0), "row " + i)
                            .setField(d.getFields().get(1), (long) i)
                            .build()
                            .toByteString());
        }
        return rows.build();
    }

    private static String countAndSum(String table) throws InterruptedException {
        FieldValueList r =
                bq.query(
                                QueryJobConfiguration.newBuilder(
                                                "SELECT count(*), sum(`n`), string_agg(`name`, ','"
                                                        + " ORDER BY `n`) FROM `writes`.`"
                                                        + table
                                                        + "`")
                                        .setUseLegacySql(false)
                                        .build())
                        .iterateAll()
                        .iterator()
                        .next();
        return r.get(0).getStringValue()
                + " "
                + (r.get(1).isNull() ? "null" : r.get(1).getStringValue())
                + " "
                + (r.get(2).isNull() ? "" : r.get(2).getStringValue().hashCode());
    }

    @Test
    void aPendingStreamsRowsAppearOnlyAtItsCommitAndOnce() throws Exception {
        TableId id = table("pending");
        String parent = connect.tablePath("writes", "pending");
        Descriptors.Descriptor d =
                WriteStreamLoader.descriptor(List.of("name", "n"), List.of("STRING", "INT64"));
        try (BigQueryWriteClient client = connect.write()) {
            WriteStream stream =
                    client.createWriteStream(
                            parent,
                            WriteStream.newBuilder().setType(WriteStream.Type.PENDING).build());
            try (StreamWriter writer =
                    StreamWriter.newBuilder(stream.getName(), client)
                            .setWriterSchema(
                                    ProtoSchema.newBuilder()
                                            .setProtoDescriptor(d.toProto())
                                            .build())
                            .build()) {
                assertThat(
                                writer.append(rows(d, 1, 60), 0)
                                        .get()
                                        .getAppendResult()
                                        .getOffset()
                                        .getValue())
                        .isZero();
                assertThat(
                                writer.append(rows(d, 61, 100), 60)
                                        .get()
                                        .getAppendResult()
                                        .getOffset()
                                        .getValue())
                        .isEqualTo(60);
                ApiFuture<AppendRowsResponse> again = writer.append(rows(d, 1, 3), 0);
                assertThatThrownBy(again::get)
                        .isInstanceOf(ExecutionException.class)
                        .hasMessageContaining(
                                "The offset is within stream, expected offset 100, received 0");
            }
            assertThat(countAndSum("pending")).as("before the commit").isEqualTo("0 null ");
            assertThat(client.finalizeWriteStream(stream.getName()).getRowCount()).isEqualTo(100);
            BatchCommitWriteStreamsRequest commit =
                    BatchCommitWriteStreamsRequest.newBuilder()
                            .setParent(parent)
                            .addWriteStreams(stream.getName())
                            .build();
            assertThat(client.batchCommitWriteStreams(commit).hasCommitTime()).isTrue();
            String expected =
                    "100 5050 "
                            + String.join(
                                            ",",
                                            java.util.stream.IntStream.rangeClosed(1, 100)
                                                    .mapToObj(i -> "row " + i)
                                                    .toList())
                                    .hashCode();
            assertThat(countAndSum("pending")).isEqualTo(expected);

            BatchCommitWriteStreamsResponse repeat = client.batchCommitWriteStreams(commit);
            assertThat(repeat.hasCommitTime()).isFalse();
            assertThat(repeat.getStreamErrorsList())
                    .extracting(StorageError::getCode, StorageError::getErrorMessage)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(
                                    StorageError.StorageErrorCode.STREAM_ALREADY_COMMITTED,
                                    "Stream is already committed: " + stream.getName()));
            assertThat(countAndSum("pending")).as("after the repeat").isEqualTo(expected);
        }
        assertThat(bq.getTable(id)).isNotNull();
    }

    @Test
    void aStreamNotFinalizedIsNotCommitted() throws Exception {
        table("unfinalized");
        String parent = connect.tablePath("writes", "unfinalized");
        try (BigQueryWriteClient client = connect.write()) {
            WriteStream stream =
                    client.createWriteStream(
                            parent,
                            WriteStream.newBuilder().setType(WriteStream.Type.PENDING).build());
            BatchCommitWriteStreamsResponse r =
                    client.batchCommitWriteStreams(
                            BatchCommitWriteStreamsRequest.newBuilder()
                                    .setParent(parent)
                                    .addWriteStreams(stream.getName())
                                    .build());
            assertThat(r.hasCommitTime()).isFalse();
            assertThat(r.getStreamErrors(0).getCode())
                    .isEqualTo(StorageError.StorageErrorCode.INVALID_STREAM_STATE);
            assertThatThrownBy(
                            () ->
                                    client.createWriteStream(
                                            parent,
                                            WriteStream.newBuilder()
                                                    .setType(WriteStream.Type.COMMITTED)
                                                    .build()))
                    .hasMessageContaining(
                            "UNIMPLEMENTED: The fake BigQuery implements PENDING write streams"
                                    + " only, not COMMITTED");
        }
    }

    @Test
    void whatTheFakeDoesNotImplementIsRefusedInBigQuerysShape() {
        assertThatThrownBy(
                        () ->
                                bq.query(
                                        QueryJobConfiguration.newBuilder("BEGIN TRANSACTION")
                                                .setUseLegacySql(false)
                                                .build()))
                .isInstanceOfSatisfying(
                        BigQueryException.class,
                        e -> {
                            assertThat(e.getCode()).isEqualTo(400);
                            assertThat(e.getReason()).isEqualTo("invalidQuery");
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "The fake BigQuery does not implement this statement:"
                                                    + " BEGIN TRANSACTION");
                        });
        table("kept");
        assertThatThrownBy(
                        () ->
                                bq.query(
                                        QueryJobConfiguration.newBuilder(
                                                        "DELETE FROM `writes`.`kept`")
                                                .setUseLegacySql(false)
                                                .build()))
                .isInstanceOfSatisfying(
                        BigQueryException.class,
                        e ->
                                assertThat(e.getMessage())
                                        .isEqualTo("DELETE must have a WHERE clause"));
        assertThatThrownBy(
                        () ->
                                bq.query(
                                        QueryJobConfiguration.newBuilder(
                                                        "CREATE TABLE `writes`.`quoted` (`a\"b`"
                                                                + " STRING)")
                                                .setUseLegacySql(false)
                                                .build()))
                .isInstanceOfSatisfying(
                        BigQueryException.class,
                        e ->
                                assertThat(e.getMessage())
                                        .isEqualTo(
                                                "Invalid field name \"a\"b\". Fields must contain"
                                                        + " the allowed characters, and be at most"
                                                        + " 300 characters long."));
        assertThat(bq.getTable(TableId.of("kit", "writes", "missing"))).isNull();
    }
}
