package io.skippr.sinks.bigquery.fake;

import com.google.cloud.bigquery.storage.v1.AnnotationsProto;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteGrpc;
import com.google.cloud.bigquery.storage.v1.CreateWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamResponse;
import com.google.cloud.bigquery.storage.v1.GetWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.StorageError;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldOptions;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.ExtensionRegistry;
import com.google.protobuf.Int64Value;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Storage Write API's {@code BigQueryWrite} service for PENDING streams: {@code
 * CreateWriteStream}, {@code AppendRows} with protocol buffer rows and explicit offsets (a repeated
 * offset is {@code ALREADY_EXISTS}, one past the end {@code OUT_OF_RANGE}), {@code
 * FinalizeWriteStream}, {@code BatchCommitWriteStreams} (all the streams' rows into their tables in
 * one PostgreSQL transaction; a stream committed before is {@code STREAM_ALREADY_COMMITTED}, one
 * not finalized {@code INVALID_STREAM_STATE}) and {@code GetWriteStream}. Rows wait in memory until
 * their commit, as BigQuery keeps them invisible. COMMITTED and BUFFERED streams, the default
 * stream and {@code FlushRows} are refused with {@code UNIMPLEMENTED}.
 */
final class FakeWriteService extends BigQueryWriteGrpc.BigQueryWriteImplBase {
    interface Backing {
        Connection open() throws SQLException;
    }

    private static final ExtensionRegistry ANNOTATIONS = ExtensionRegistry.newInstance();

    static {
        AnnotationsProto.registerAllExtensions(ANNOTATIONS);
    }

    private final Backing backing;
    private final Map<String, Stream> streams = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    FakeWriteService(Backing backing) {
        this.backing = backing;
    }

    /** One write stream: its table, rows appended so far, and state. */
    private static final class Stream {
        final String name;
        final String parent;
        final String dataset;
        final String table;
        final Timestamp created;
        final List<Map<String, Object>> rows = new ArrayList<>();
        boolean finalized;
        boolean committed;

        Stream(String name, String parent, String dataset, String table) {
            this.name = name;
            this.parent = parent;
            this.dataset = dataset;
            this.table = table;
            Instant now = Instant.now();
            this.created =
                    Timestamp.newBuilder()
                            .setSeconds(now.getEpochSecond())
                            .setNanos(now.getNano())
                            .build();
        }

        WriteStream proto() {
            return WriteStream.newBuilder()
                    .setName(name)
                    .setType(WriteStream.Type.PENDING)
                    .setCreateTime(created)
                    .setLocation("US")
                    .build();
        }
    }

    /** {@code projects/P/datasets/D/tables/T} as {D, T}; null when not of that form. */
    private static String[] table(String parent) {
        String[] p = parent.split("/");
        if (p.length != 6
                || !p[0].equals("projects")
                || !p[2].equals("datasets")
                || !p[4].equals("tables")) {
            return null;
        }
        return new String[] {p[3], p[5]};
    }

    @Override
    public void createWriteStream(
            CreateWriteStreamRequest request, StreamObserver<WriteStream> response) {
        String[] t = table(request.getParent());
        if (t == null) {
            response.onError(
                    Status.INVALID_ARGUMENT
                            .withDescription("Invalid table name: " + request.getParent())
                            .asRuntimeException());
            return;
        }
        if (request.getWriteStream().getType() != WriteStream.Type.PENDING) {
            response.onError(
                    Status.UNIMPLEMENTED
                            .withDescription(
                                    "The fake BigQuery implements PENDING write streams only, not "
                                            + request.getWriteStream().getType())
                            .asRuntimeException());
            return;
        }
        try (Connection c = backing.open()) {
            if (FakeBigQuery.table(c, "p", t[0], t[1]) == null) {
                response.onError(
                        Status.NOT_FOUND
                                .withDescription(
                                        "Requested entity was not found. Entity: "
                                                + request.getParent())
                                .asRuntimeException());
                return;
            }
        } catch (SQLException e) {
            response.onError(Status.INTERNAL.withDescription(e.toString()).asRuntimeException());
            return;
        }
        String name = request.getParent() + "/streams/fake" + ids.incrementAndGet();
        Stream s = new Stream(name, request.getParent(), t[0], t[1]);
        streams.put(name, s);
        response.onNext(s.proto());
        response.onCompleted();
    }

    @Override
    public void getWriteStream(
            GetWriteStreamRequest request, StreamObserver<WriteStream> response) {
        Stream s = streams.get(request.getName());
        if (s == null) {
            response.onError(
                    Status.NOT_FOUND
                            .withDescription(
                                    "Requested entity was not found. Entity: " + request.getName())
                            .asRuntimeException());
            return;
        }
        response.onNext(s.proto());
        response.onCompleted();
    }

    @Override
    public StreamObserver<AppendRowsRequest> appendRows(
            StreamObserver<AppendRowsResponse> response) {
        return new StreamObserver<>() {
            String name;
            Descriptors.Descriptor descriptor;
            List<String> columns;

            @Override
            public synchronized void onNext(AppendRowsRequest request) {
                if (!request.getWriteStream().isEmpty()) {
                    name = request.getWriteStream();
                }
                Stream s = name == null ? null : streams.get(name);
                if (s == null) {
                    response.onError(
                            Status.NOT_FOUND
                                    .withDescription(
                                            name != null && name.endsWith("/_default")
                                                    ? "The fake BigQuery does not implement the"
                                                            + " default stream"
                                                    : "Requested entity was not found. Entity: "
                                                            + name)
                                    .asRuntimeException());
                    return;
                }
                if (!request.hasProtoRows()) {
                    response.onError(
                            Status.UNIMPLEMENTED
                                    .withDescription("The fake BigQuery takes proto rows only")
                                    .asRuntimeException());
                    return;
                }
                try {
                    if (request.getProtoRows().hasWriterSchema()) {
                        describe(request.getProtoRows().getWriterSchema().getProtoDescriptor());
                    }
                    if (descriptor == null) {
                        response.onError(
                                Status.INVALID_ARGUMENT
                                        .withDescription("Writer schema is missing")
                                        .asRuntimeException());
                        return;
                    }
                    synchronized (s) {
                        long at = s.rows.size();
                        if (s.finalized || s.committed) {
                            response.onNext(
                                    error(
                                            name,
                                            com.google.rpc.Code.INVALID_ARGUMENT,
                                            "Stream is finalized: " + name));
                            return;
                        }
                        if (request.hasOffset() && request.getOffset().getValue() != at) {
                            long offset = request.getOffset().getValue();
                            response.onNext(
                                    offset < at
                                            ? error(
                                                    name,
                                                    com.google.rpc.Code.ALREADY_EXISTS,
                                                    "The offset is within stream, expected offset "
                                                            + at
                                                            + ", received "
                                                            + offset)
                                            : error(
                                                    name,
                                                    com.google.rpc.Code.OUT_OF_RANGE,
                                                    "The offset is beyond stream, expected offset "
                                                            + at
                                                            + ", received "
                                                            + offset));
                            return;
                        }
                        List<Map<String, Object>> decoded = new ArrayList<>();
                        for (ByteString bytes :
                                request.getProtoRows().getRows().getSerializedRowsList()) {
                            DynamicMessage m = DynamicMessage.parseFrom(descriptor, bytes);
                            Map<String, Object> row = new LinkedHashMap<>();
                            for (Descriptors.FieldDescriptor f : descriptor.getFields()) {
                                if (m.hasField(f)) {
                                    row.put(columns.get(f.getIndex()), m.getField(f));
                                }
                            }
                            decoded.add(row);
                        }
                        s.rows.addAll(decoded);
                        response.onNext(
                                AppendRowsResponse.newBuilder()
                                        .setWriteStream(name)
                                        .setAppendResult(
                                                AppendRowsResponse.AppendResult.newBuilder()
                                                        .setOffset(Int64Value.of(at)))
                                        .build());
                    }
                } catch (InvalidProtocolBufferException
                        | Descriptors.DescriptorValidationException e) {
                    response.onError(
                            Status.INVALID_ARGUMENT
                                    .withDescription(e.getMessage())
                                    .asRuntimeException());
                }
            }

            private void describe(DescriptorProto proto)
                    throws Descriptors.DescriptorValidationException,
                            InvalidProtocolBufferException {
                descriptor =
                        Descriptors.FileDescriptor.buildFrom(
                                        FileDescriptorProto.newBuilder()
                                                .setName("writer.proto")
                                                .addMessageType(proto)
                                                .build(),
                                        new Descriptors.FileDescriptor[0])
                                .findMessageTypeByName(proto.getName());
                columns = new ArrayList<>();
                for (Descriptors.FieldDescriptor f : descriptor.getFields()) {
                    FieldOptions options =
                            FieldOptions.parseFrom(f.getOptions().toByteString(), ANNOTATIONS);
                    String column = options.getExtension(AnnotationsProto.columnName);
                    columns.add(column == null || column.isEmpty() ? f.getName() : column);
                }
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {
                response.onCompleted();
            }
        };
    }

    private static AppendRowsResponse error(
            String stream, com.google.rpc.Code code, String message) {
        return AppendRowsResponse.newBuilder()
                .setWriteStream(stream)
                .setError(
                        com.google.rpc.Status.newBuilder()
                                .setCode(code.getNumber())
                                .setMessage(message))
                .build();
    }

    @Override
    public void finalizeWriteStream(
            FinalizeWriteStreamRequest request,
            StreamObserver<FinalizeWriteStreamResponse> response) {
        Stream s = streams.get(request.getName());
        if (s == null) {
            response.onError(
                    Status.NOT_FOUND
                            .withDescription(
                                    "Requested entity was not found. Entity: " + request.getName())
                            .asRuntimeException());
            return;
        }
        synchronized (s) {
            s.finalized = true;
            response.onNext(
                    FinalizeWriteStreamResponse.newBuilder().setRowCount(s.rows.size()).build());
        }
        response.onCompleted();
    }

    @Override
    public void batchCommitWriteStreams(
            BatchCommitWriteStreamsRequest request,
            StreamObserver<BatchCommitWriteStreamsResponse> response) {
        List<StorageError> errors = new ArrayList<>();
        List<Stream> commit = new ArrayList<>();
        for (String name : request.getWriteStreamsList()) {
            Stream s = streams.get(name);
            if (s == null || !s.parent.equals(request.getParent())) {
                errors.add(
                        storageError(
                                StorageError.StorageErrorCode.STREAM_NOT_FOUND,
                                name,
                                "Stream is not found: " + name));
            } else if (s.committed) {
                errors.add(
                        storageError(
                                StorageError.StorageErrorCode.STREAM_ALREADY_COMMITTED,
                                name,
                                "Stream is already committed: " + name));
            } else if (!s.finalized) {
                errors.add(
                        storageError(
                                StorageError.StorageErrorCode.INVALID_STREAM_STATE,
                                name,
                                "Stream is not finalized: " + name));
            } else {
                commit.add(s);
            }
        }
        if (!errors.isEmpty()) {
            response.onNext(
                    BatchCommitWriteStreamsResponse.newBuilder()
                            .addAllStreamErrors(errors)
                            .build());
            response.onCompleted();
            return;
        }
        try (Connection c = backing.open()) {
            c.setAutoCommit(false);
            for (Stream s : commit) {
                synchronized (s) {
                    insert(c, s);
                }
            }
            c.commit();
        } catch (SQLException e) {
            response.onError(
                    Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        commit.forEach(s -> s.committed = true);
        Instant now = Instant.now();
        response.onNext(
                BatchCommitWriteStreamsResponse.newBuilder()
                        .setCommitTime(
                                Timestamp.newBuilder()
                                        .setSeconds(now.getEpochSecond())
                                        .setNanos(now.getNano()))
                        .build());
        response.onCompleted();
    }

    private static StorageError storageError(
            StorageError.StorageErrorCode code, String entity, String message) {
        return StorageError.newBuilder()
                .setCode(code)
                .setEntity(entity)
                .setErrorMessage(message)
                .build();
    }

    /** The stream's rows into its table, each value cast to its column's type. */
    private static void insert(Connection c, Stream s) throws SQLException {
        if (s.rows.isEmpty()) {
            return;
        }
        Map<String, String> types = new LinkedHashMap<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT a.attname, format_type(a.atttypid, NULL) FROM pg_attribute a"
                                + " JOIN pg_class cl ON cl.oid = a.attrelid JOIN pg_namespace n ON"
                                + " n.oid = cl.relnamespace WHERE n.nspname = ? AND cl.relname = ?"
                                + " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")) {
            st.setString(1, Names.standIn(s.dataset));
            st.setString(2, Names.standIn(s.table));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    types.put(Names.original(rs.getString(1)), rs.getString(2));
                }
            }
        }
        List<String> columns = new ArrayList<>(types.keySet());
        StringBuilder sql =
                new StringBuilder("INSERT INTO ")
                        .append(Names.pgIdentifier(s.dataset))
                        .append('.')
                        .append(Names.pgIdentifier(s.table))
                        .append(" (");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(Names.pgIdentifier(columns.get(i)));
        }
        sql.append(") VALUES (");
        for (int i = 0; i < columns.size(); i++) {
            String type = types.get(columns.get(i));
            sql.append(i == 0 ? "" : ", ")
                    .append(type.equals("bytea") ? "?" : "CAST(? AS " + type + ")");
        }
        sql.append(')');
        try (PreparedStatement st = c.prepareStatement(sql.toString())) {
            for (Map<String, Object> row : s.rows) {
                for (String column : row.keySet()) {
                    if (!types.containsKey(column)) {
                        throw new SQLException(
                                "Input schema has more fields than BigQuery schema, extra fields: '"
                                        + column
                                        + "'");
                    }
                }
                for (int i = 0; i < columns.size(); i++) {
                    Object v = row.get(columns.get(i));
                    String type = types.get(columns.get(i));
                    if (v == null) {
                        st.setNull(
                                i + 1,
                                type.equals("bytea")
                                        ? java.sql.Types.BINARY
                                        : java.sql.Types.VARCHAR);
                    } else if (v instanceof ByteString b) {
                        st.setBytes(i + 1, b.toByteArray());
                    } else {
                        st.setString(i + 1, text(v, type));
                    }
                }
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    /** A proto value as text of its column's PostgreSQL type, as BigQuery reads it. */
    private static String text(Object v, String type) {
        if ((type.equals("timestamptz") || type.equals("timestamp with time zone"))
                && v instanceof Long micros) {
            return OffsetDateTime.ofInstant(
                            Instant.ofEpochSecond(
                                    Math.floorDiv(micros, 1_000_000L),
                                    Math.floorMod(micros, 1_000_000L) * 1000),
                            ZoneOffset.UTC)
                    .toString();
        }
        if (type.equals("date") && v instanceof Integer days) {
            return LocalDate.ofEpochDay(days).toString();
        }
        return v.toString();
    }
}
