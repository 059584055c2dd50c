package io.skippr.sinks.bigquery;

import com.google.api.gax.rpc.BidiStream;
import com.google.cloud.bigquery.BigQuery;
import com.google.cloud.bigquery.BigQueryException;
import com.google.cloud.bigquery.Field;
import com.google.cloud.bigquery.Schema;
import com.google.cloud.bigquery.StandardSQLTypeName;
import com.google.cloud.bigquery.StandardTableDefinition;
import com.google.cloud.bigquery.TableId;
import com.google.cloud.bigquery.TableInfo;
import com.google.cloud.bigquery.storage.v1.AnnotationsProto;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteClient;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.StorageError;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldOptions;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Int64Value;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Fills staging tables through the Storage Write API: per staging table (one stream, one schema
 * version, one writer subtask, one checkpoint) the table is created through the tables API, a
 * PENDING write stream is opened on it, and rows are appended in batches of protocol buffer rows
 * with explicit offsets (a repeated or lost append fails instead of adding rows twice or leaving a
 * gap). {@link #finish} finalizes each stream and commits it with {@code BatchCommitWriteStreams}:
 * afterwards the staging table holds exactly the checkpoint's rows, before it nothing of them is
 * visible.
 */
final class WriteStreamLoader implements StagingLoader {
    /** Serialized bytes per append request (the API takes at most 10 MB). */
    static final int BATCH_BYTES = 4 << 20;

    private static final Pattern PROTO_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final DateTimeFormatter DATETIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

    private final BigQueryConnect connect;
    private final BigQuery rest;
    private BigQueryWriteClient client;
    private final Map<String, Pending> pending = new LinkedHashMap<>();

    WriteStreamLoader(BigQueryConnect connect, BigQuery rest) {
        this.connect = connect;
        this.rest = rest;
    }

    /** One staging table being written: its stream, writer, batch and appends in flight. */
    private static final class Pending {
        final StagingTable table;
        final String parent;
        final List<String> types = new ArrayList<>();
        final List<DataType> dataTypes = new ArrayList<>();
        final Descriptors.Descriptor descriptor;
        String stream;
        BidiStream<AppendRowsRequest, AppendRowsResponse> appends;
        ProtoRows.Builder batch = ProtoRows.newBuilder();
        long batchBytes;
        long offset;
        long rows;
        int sent;

        Pending(StagingTable table, String parent, Descriptors.Descriptor descriptor) {
            this.table = table;
            this.parent = parent;
            this.descriptor = descriptor;
        }
    }

    private BigQueryWriteClient client() throws IOException {
        if (client == null) {
            client = connect.write();
        }
        return client;
    }

    @Override
    public void create(StagingTable table) throws IOException {
        List<String> names = new ArrayList<>(table.columns());
        List<String> types = new ArrayList<>(table.types());
        names.addAll(List.of(SqlNames.ID, SqlNames.SYNCED_AT, SqlNames.DELETE_ROW, SqlNames.SEQ));
        types.addAll(List.of("STRING", "TIMESTAMP", "BOOL", "INT64"));
        TableId id = TableId.of(connect.project(), table.schemaName(), table.name());
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            fields.add(field(names.get(i), types.get(i)));
        }
        TableInfo info =
                TableInfo.newBuilder(id, StandardTableDefinition.of(Schema.of(fields)))
                        .setDescription(table.comment())
                        .build();
        try {
            try {
                rest.create(info);
            } catch (BigQueryException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                rest.delete(id); // left by an earlier attempt that no checkpoint holds
                rest.create(info);
            }
        } catch (BigQueryException e) {
            throw new IOException(
                    "creating staging table "
                            + table.schemaName()
                            + "."
                            + table.name()
                            + " failed: "
                            + e.getMessage()
                            + " ("
                            + connect
                            + ")",
                    e);
        }
        Pending p =
                new Pending(
                        table,
                        connect.tablePath(table.schemaName(), table.name()),
                        descriptor(names, types));
        p.types.addAll(types);
        for (io.skippr.core.record.Column c : table.schema().columns()) {
            p.dataTypes.add(c.type());
        }
        try {
            WriteStream stream =
                    client().createWriteStream(
                                    p.parent,
                                    WriteStream.newBuilder()
                                            .setType(WriteStream.Type.PENDING)
                                            .build());
            p.stream = stream.getName();
            p.appends = client().appendRowsCallable().call();
        } catch (RuntimeException e) {
            throw new IOException(
                    "opening a PENDING write stream on " + p.parent + " failed: " + e.getMessage(),
                    e);
        }
        pending.put(table.name(), p);
    }

    /** A column of the tables API's schema for {@code type} as the dialect spells it. */
    static Field field(String name, String type) {
        String base = type.contains("(") ? type.substring(0, type.indexOf('(')) : type;
        Field.Builder f =
                Field.newBuilder(name, StandardSQLTypeName.valueOf(base))
                        .setMode(Field.Mode.NULLABLE);
        if (type.contains("(")) {
            String[] ps = type.substring(type.indexOf('(') + 1, type.length() - 1).split(",");
            f.setPrecision(Long.parseLong(ps[0].trim())).setScale(Long.parseLong(ps[1].trim()));
        }
        return f.build();
    }

    /**
     * The protocol buffer row: field i+1 for column i, named as the column where that is a valid
     * proto name, else {@code col_<i>} with the column's name in the {@code column_name} option.
     */
    static Descriptors.Descriptor descriptor(List<String> names, List<String> types)
            throws IOException {
        DescriptorProto.Builder row = DescriptorProto.newBuilder().setName("SkipprRow");
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            FieldDescriptorProto.Builder f =
                    FieldDescriptorProto.newBuilder()
                            .setNumber(i + 1)
                            .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
                            .setType(protoType(types.get(i)));
            if (PROTO_NAME.matcher(name).matches()) {
                f.setName(name);
            } else {
                f.setName("col_" + i)
                        .setOptions(
                                FieldOptions.newBuilder()
                                        .setExtension(AnnotationsProto.columnName, name)
                                        .build());
            }
            row.addField(f);
        }
        try {
            return Descriptors.FileDescriptor.buildFrom(
                            FileDescriptorProto.newBuilder()
                                    .setName("skippr_row.proto")
                                    .setSyntax("proto2")
                                    .addMessageType(row)
                                    .build(),
                            new Descriptors.FileDescriptor[0])
                    .findMessageTypeByName("SkipprRow");
        } catch (Descriptors.DescriptorValidationException e) {
            throw new IOException("cannot describe the staging row: " + e.getMessage(), e);
        }
    }

    private static FieldDescriptorProto.Type protoType(String type) {
        return switch (type) {
            case "INT64", "TIMESTAMP" -> FieldDescriptorProto.Type.TYPE_INT64;
            case "FLOAT64" -> FieldDescriptorProto.Type.TYPE_DOUBLE;
            case "BOOL" -> FieldDescriptorProto.Type.TYPE_BOOL;
            case "BYTES" -> FieldDescriptorProto.Type.TYPE_BYTES;
            case "DATE" -> FieldDescriptorProto.Type.TYPE_INT32;
            default -> FieldDescriptorProto.Type.TYPE_STRING;
        };
    }

    @Override
    public void write(StagingTable table, Row row, long seq) throws IOException {
        Pending p = pending.get(table.name());
        if (p == null) {
            throw new IOException("staging table " + table.name() + " was not created");
        }
        DynamicMessage.Builder m = DynamicMessage.newBuilder(p.descriptor);
        Object[] values = row.values();
        int n = p.dataTypes.size();
        for (int i = 0; i < n; i++) {
            Object v = i < values.length ? values[i] : null;
            if (v != null) {
                m.setField(
                        p.descriptor.getFields().get(i),
                        value(p.dataTypes.get(i), p.types.get(i), v));
            }
        }
        if (row.id() != null) {
            m.setField(p.descriptor.getFields().get(n), row.id());
        }
        m.setField(p.descriptor.getFields().get(n + 1), row.syncedAtMicros());
        m.setField(p.descriptor.getFields().get(n + 2), row.op() == Operation.DELETE);
        m.setField(p.descriptor.getFields().get(n + 3), seq);
        ByteString bytes = m.build().toByteString();
        if (p.batchBytes + bytes.size() > BATCH_BYTES) {
            send(p);
        }
        p.batch.addSerializedRows(bytes);
        p.batchBytes += bytes.size();
        p.rows++;
    }

    /** A value as the Storage Write API takes it for a column of BigQuery type {@code type}. */
    static Object value(DataType dataType, String type, Object v) {
        String base = type.contains("(") ? type.substring(0, type.indexOf('(')) : type;
        return switch (base) {
            case "INT64" -> ((Number) v).longValue();
            case "FLOAT64" ->
                    v instanceof Float f
                            ? Double.parseDouble(f.toString())
                            : ((Number) v).doubleValue();
            case "BOOL" -> (Boolean) v;
            case "BYTES" -> ByteString.copyFrom((byte[]) v);
            case "DATE" -> (int) ((LocalDate) v).toEpochDay();
            case "TIMESTAMP" -> micros((Instant) v);
            case "DATETIME" -> DATETIME.format((LocalDateTime) v);
            case "TIME" -> TIME.format((LocalTime) v);
            case "NUMERIC", "BIGNUMERIC" -> ((BigDecimal) v).toPlainString();
            default ->
                    dataType.kind() == DataType.Kind.DECIMAL
                            ? ((BigDecimal) v).toPlainString()
                            : v.toString();
        };
    }

    private static long micros(Instant t) {
        return Math.addExact(
                Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    /**
     * Sends the batch at the stream's next offset on the stream's {@code AppendRows} call (the
     * first request names the stream and carries the writer schema); the answers are read in {@link
     * #commit}.
     */
    private void send(Pending p) throws IOException {
        ProtoRows rows = p.batch.build();
        if (rows.getSerializedRowsCount() == 0) {
            return;
        }
        AppendRowsRequest.ProtoData.Builder data =
                AppendRowsRequest.ProtoData.newBuilder().setRows(rows);
        AppendRowsRequest.Builder request =
                AppendRowsRequest.newBuilder().setOffset(Int64Value.of(p.offset));
        if (p.sent == 0) {
            request.setWriteStream(p.stream);
            data.setWriterSchema(
                    ProtoSchema.newBuilder().setProtoDescriptor(p.descriptor.toProto()).build());
        }
        try {
            p.appends.send(request.setProtoRows(data).build());
        } catch (RuntimeException e) {
            throw new IOException("appending to " + p.stream + " failed: " + e.getMessage(), e);
        }
        p.sent++;
        p.offset += rows.getSerializedRowsCount();
        p.batch = ProtoRows.newBuilder();
        p.batchBytes = 0;
    }

    @Override
    public void finish() throws IOException {
        try {
            for (Pending p : pending.values()) {
                commit(p);
            }
        } finally {
            close();
        }
    }

    /** Waits for the answer to every append, finalizes the stream and commits it. */
    private void commit(Pending p) throws IOException {
        send(p);
        p.appends.closeSend();
        int answered = 0;
        try {
            for (AppendRowsResponse r : p.appends) {
                if (r.hasError()) {
                    throw new IOException(
                            "appending to " + p.stream + " failed: " + r.getError().getMessage());
                }
                answered++;
            }
        } catch (RuntimeException e) {
            throw new IOException("appending to " + p.stream + " failed: " + e.getMessage(), e);
        }
        p.appends = null;
        if (answered != p.sent) {
            throw new IOException(
                    "write stream "
                            + p.stream
                            + " answered "
                            + answered
                            + " of "
                            + p.sent
                            + " appends");
        }
        try {
            long finalized = client().finalizeWriteStream(p.stream).getRowCount();
            if (finalized != p.rows) {
                throw new IOException(
                        "write stream "
                                + p.stream
                                + " was finalized with "
                                + finalized
                                + " rows, but "
                                + p.rows
                                + " were appended");
            }
            BatchCommitWriteStreamsResponse r =
                    client().batchCommitWriteStreams(
                                    BatchCommitWriteStreamsRequest.newBuilder()
                                            .setParent(p.parent)
                                            .addWriteStreams(p.stream)
                                            .build());
            if (!r.hasCommitTime()) {
                List<String> errors = new ArrayList<>();
                for (StorageError e : r.getStreamErrorsList()) {
                    errors.add(e.getCode() + " " + e.getEntity() + ": " + e.getErrorMessage());
                }
                throw new IOException(
                        "BatchCommitWriteStreams of "
                                + p.stream
                                + " committed nothing: "
                                + String.join("; ", errors));
            }
        } catch (RuntimeException e) {
            throw new IOException(
                    "committing write stream " + p.stream + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        for (Pending p : pending.values()) {
            if (p.appends != null) {
                p.appends.closeSendWithError(new IOException("the writer closed"));
                p.appends = null;
            }
        }
        pending.clear();
    }
}
