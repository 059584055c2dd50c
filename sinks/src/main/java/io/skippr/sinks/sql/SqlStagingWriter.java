package io.skippr.sinks.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.core.record.Column;
import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SchemaVersions;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.writer.StreamUnit;
import io.skippr.sinks.writer.StreamUnits;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;

/**
 * Pre-commits a SQL sink's rows: each stream's rows go into a staging table of their own per schema
 * version and checkpoint, through the database's {@link StagingLoader}; at the checkpoint barrier
 * (or the end of a bounded run) the loader finishes and the writer hands on one {@link
 * SqlCommittable} per staging table, plus one per schema nobody has seen rows of yet (so an empty
 * table or a new column still reaches the target), plus, in a bounded run, its end.
 *
 * <p>Staging tables are named by {@link SqlNames#staging} from the run, subtask, epoch (the
 * checkpoint the writer restored from) and a sequence number, and carry that as JSON in their
 * comment. When a writer starts it drops the staging tables no checkpoint holds: on a fresh start
 * all of its subtask's; after a restore from checkpoint {@code c}, those made in epoch {@code c} or
 * later, and those its restored state lists as made after the checkpoint.
 */
public final class SqlStagingWriter
        implements StatefulSinkWriter<SourceRecord, SqlWriterState>,
                CommittingSinkWriter<SourceRecord, SqlCommittable> {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqlSinkSettings settings;
    private final SqlDialect dialect;
    private final SqlNames names;
    private final TargetTables targets;
    private final int subtask;
    private final int parallelism;
    private final long epoch;
    private final Connection connection;
    private final StagingLoader loader;
    private final SchemaVersions schemas = new SchemaVersions();
    private final Map<String, StreamSchema> unannounced = new LinkedHashMap<>();
    private final Set<String> announced = new HashSet<>();
    private final StreamUnits<Segment, SqlCommittable> open =
            new StreamUnits<>(schemas, this::finish);
    private long seq;

    /**
     * Per stream, the read positions of the input: a bounded run's, for its end committable; a
     * continuous run's since the last checkpoint, for that checkpoint's marker row.
     */
    private final Map<String, String> readPositions = new TreeMap<>();

    private long batch;

    private final io.skippr.core.spi.FailPoint.Trigger failures;

    public SqlStagingWriter(
            SqlSinkSettings settings,
            int subtask,
            int parallelism,
            OptionalLong restoredCheckpoint,
            Collection<SqlWriterState> restored)
            throws IOException {
        this(
                settings,
                subtask,
                parallelism,
                restoredCheckpoint,
                restored,
                io.skippr.core.spi.FailPoint.NONE);
    }

    /**
     * @param restoredCheckpoint the checkpoint the job restored from; empty for a fresh start
     * @param restored the writer states of that checkpoint given to this subtask
     * @param failPoint fired {@link io.skippr.core.spi.FailPoint.Stage#AFTER_PREPARE} once the
     *     loader prepared a transaction (recovery tests)
     */
    public SqlStagingWriter(
            SqlSinkSettings settings,
            int subtask,
            int parallelism,
            OptionalLong restoredCheckpoint,
            Collection<SqlWriterState> restored,
            io.skippr.core.spi.FailPoint failPoint)
            throws IOException {
        this.failures = failPoint.trigger();
        this.settings = settings;
        this.dialect = settings.dialect();
        this.names = dialect.names();
        this.targets = new TargetTables(settings);
        this.subtask = subtask;
        this.parallelism = parallelism;
        this.epoch = restoredCheckpoint.orElse(0);
        this.connection = settings.database().connect();
        try {
            dropUnheld(restoredCheckpoint, restored);
            this.loader = settings.database().loader(connection, settings, subtask);
        } catch (IOException | RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /** What a staging table's comment says about it. */
    public record StagingMeta(
            String pipeline, String sink, long run, int subtask, long epoch, long seq) {}

    static String comment(SqlSinkSettings s, int subtask, long epoch, long seq, String stream) {
        return JSON.createObjectNode()
                .put("skippr", "staging")
                .put("pipeline", s.pipeline())
                .put("sink", s.sink())
                .put("run", s.run())
                .put("subtask", subtask)
                .put("epoch", epoch)
                .put("seq", seq)
                .put("stream", stream)
                .toString();
    }

    public static StagingMeta meta(String comment) {
        if (comment == null) {
            return null;
        }
        try {
            JsonNode doc = JSON.readTree(comment);
            if (!"staging".equals(doc.path("skippr").asText())) {
                return null;
            }
            return new StagingMeta(
                    doc.path("pipeline").asText(),
                    doc.path("sink").asText(),
                    doc.path("run").asLong(),
                    doc.path("subtask").asInt(),
                    doc.path("epoch").asLong(),
                    doc.path("seq").asLong());
        } catch (IOException e) {
            return null;
        }
    }

    /** What marks a staging table's comment as owed to its target, with the rows' schema. */
    private static final String OWED = "owed";

    /**
     * {@code comment} marked as owed: the staging table's rows belong in its target, which needs
     * DDL before they can move ({@link SqlDatabase#settleOwed}).
     */
    public static String owedComment(String comment, StreamSchema schema) {
        try {
            return ((com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(comment))
                    .put(OWED, SqlCommittableSerializer.schemaText(schema))
                    .toString();
        } catch (IOException e) {
            throw new IllegalArgumentException("not a staging table's comment: " + comment, e);
        }
    }

    /** The schema of an owed staging table's rows, from its comment; null if it is not owed. */
    public static StreamSchema owedSchema(String comment) {
        if (meta(comment) == null) {
            return null;
        }
        try {
            JsonNode owed = JSON.readTree(comment).path(OWED);
            return owed.isTextual() ? SqlCommittableSerializer.schemaOf(owed.asText()) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The staging tables of this pipeline and sink that are owed to their targets, by name, with
     * their stream's schema. Their marks committed with their checkpoint, so no start may drop
     * them: {@link SqlDatabase#settleOwed} moves them.
     */
    public static Map<String, StreamSchema> owedTables(SqlSinkSettings settings, Connection c)
            throws SQLException, IOException {
        Map<String, StreamSchema> out = new TreeMap<>();
        for (SqlDialect.StagingInfo info : ours(settings, c)) {
            StreamSchema schema = owedSchema(info.comment());
            if (schema != null) {
                out.put(info.name(), schema);
            }
        }
        return out;
    }

    /** The staging tables of this pipeline and sink in the target schema, with what they are. */
    static Map<String, StagingMeta> stagingTables(SqlSinkSettings settings, Connection c)
            throws SQLException, IOException {
        Map<String, StagingMeta> out = new LinkedHashMap<>();
        for (SqlDialect.StagingInfo info : ours(settings, c)) {
            out.put(info.name(), meta(info.comment()));
        }
        return out;
    }

    /** The staging tables whose comment names this pipeline and sink. */
    private static List<SqlDialect.StagingInfo> ours(SqlSinkSettings settings, Connection c)
            throws SQLException, IOException {
        List<SqlDialect.StagingInfo> out = new ArrayList<>();
        for (SqlDialect.StagingInfo info : settings.database().staging().list(c, settings)) {
            StagingMeta meta = meta(info.comment());
            if (meta != null
                    && meta.pipeline().equals(settings.pipeline())
                    && meta.sink().equals(settings.sink())) {
                out.add(info);
            }
        }
        return out;
    }

    /**
     * Rolls back the prepared transactions of this pipeline and sink's continuous runs that no
     * checkpoint holds (they hold locks on the staging tables they move), moves the owed staging
     * tables whose checkpoint committed into their targets ({@link SqlDatabase#settleOwed}), then
     * drops the staging tables no checkpoint holds, never an owed one.
     */
    private void dropUnheld(OptionalLong restoredCheckpoint, Collection<SqlWriterState> restored)
            throws IOException {
        try {
            settings.database()
                    .rollBackUnheld(
                            connection, settings, m -> unheld(m, restoredCheckpoint, restored));
            // committed owed rows: moved now where nothing holds their target, else kept
            settings.database().settleOwed(connection, settings, List.of());
            Set<String> owed = owedTables(settings, connection).keySet();
            for (Map.Entry<String, StagingMeta> e :
                    stagingTables(settings, connection).entrySet()) {
                if (!owed.contains(e.getKey())
                        && unheld(e.getValue(), restoredCheckpoint, restored)) {
                    settings.database().staging().discard(connection, settings, e.getKey());
                }
            }
        } catch (SQLException e) {
            throw settings.database().failure("dropping staging tables no checkpoint holds", e);
        }
    }

    /**
     * Whether no checkpoint holds what {@code m} names: on a fresh start, all of this subtask's
     * (and subtask 0 takes those of subtasks the run no longer has); after a restore, those made in
     * the restored epoch or later, and those the restored state lists as made after its checkpoint.
     */
    private boolean unheld(
            StagingMeta m, OptionalLong restoredCheckpoint, Collection<SqlWriterState> restored) {
        boolean mine = m.subtask() == subtask || (subtask == 0 && m.subtask() >= parallelism);
        return restoredCheckpoint.isEmpty()
                ? mine
                : (mine && m.epoch() >= restoredCheckpoint.getAsLong())
                        || restored.stream()
                                .anyMatch(
                                        s ->
                                                s.run() == m.run()
                                                        && s.subtask() == m.subtask()
                                                        && s.epoch() == m.epoch()
                                                        && m.seq() >= s.nextSeq());
    }

    @Override
    public void write(SourceRecord record, Context context) throws IOException {
        if (record instanceof SchemaChange change) {
            accept(change.schema());
            return;
        }
        if (record instanceof ReadPosition position) {
            readPositions.merge(position.stream(), position.position(), ReadPositions::union);
            return;
        }
        if (!(record instanceof Row row)) {
            throw new IOException("a SQL sink receives rows and schemas, not " + record);
        }
        Segment segment = open.of(row, this::openSegment);
        loader.write(segment.table, row, segment.rows());
        segment.count(row);
    }

    /** A new schema version: checked against the write mode and the target before any row. */
    private void accept(StreamSchema schema) throws IOException {
        if (schemas.has(schema)) {
            return;
        }
        if (settings.mode() == WriteMode.MERGE && schema.primaryKey().isEmpty()) {
            throw new SqlSinkException(CommitTransaction.mergeNeedsKey(settings, schema.stream()));
        }
        Set<String> seen = new HashSet<>();
        for (Column column : schema.columns()) {
            if (!seen.add(names.column(column.name()))) {
                throw new SqlSinkException(
                        "Stream "
                                + schema.stream()
                                + " has two columns that both become column "
                                + dialect.quote(names.column(column.name()))
                                + " in "
                                + settings.qualified(names.table(schema.stream()))
                                + "; rename one in the source");
            }
        }
        if (settings.mode() != WriteMode.REPLACE) {
            String table = names.table(schema.stream());
            loader.pause(); // the connection may be in a COPY of another stream's rows
            try {
                LinkedHashMap<String, String> existing =
                        dialect.columns(connection, settings.schema(), table);
                if (existing != null) {
                    targets.changes(table, existing, schema); // fails now, not at commit
                }
            } catch (SQLException e) {
                throw settings.database().failure("reading " + settings.qualified(table), e);
            }
        }
        schemas.add(schema);
        String key = schema.stream() + "\u0000" + schema.version();
        if (!announced.contains(key)) {
            unannounced.put(key, schema);
        }
    }

    private Segment openSegment(StreamSchema schema) throws IOException {
        String name =
                SqlNames.staging(
                        settings.pipeline(), settings.sink(), settings.run(), subtask, epoch, seq);
        StagingTable table =
                StagingTable.of(
                        dialect,
                        settings.schema(),
                        name,
                        schema,
                        comment(settings, subtask, epoch, seq, schema.stream()));
        loader.create(table);
        return new Segment(schema, table, seq++);
    }

    private SqlCommittable finish(Segment segment) {
        StreamSchema schema = segment.schema();
        String prepared = loader.preparedAs(segment.table);
        SqlCommittable.Kind kind =
                prepared == null
                        ? SqlCommittable.Kind.ROWS
                        : loader.heldInRunTransaction()
                                ? SqlCommittable.Kind.HELD
                                : SqlCommittable.Kind.PREPARED;
        SqlCommittable rows =
                new SqlCommittable(
                        kind,
                        settings.run(),
                        subtask,
                        parallelism,
                        epoch,
                        batch,
                        segment.seq,
                        schema.stream(),
                        schema,
                        prepared == null ? segment.table.name() : prepared,
                        segment.rows(),
                        segment.maxCursor(),
                        segment.cursorType(),
                        segment.minCursor(),
                        segment.checksum());
        String key = schema.stream() + "\u0000" + schema.version();
        announced.add(key);
        unannounced.remove(key);
        return rows;
    }

    @Override
    public Collection<SqlCommittable> prepareCommit() throws IOException {
        List<SqlCommittable> out = open.finishAll();
        for (Map.Entry<String, StreamSchema> e : unannounced.entrySet()) {
            StreamSchema schema = e.getValue();
            out.add(
                    new SqlCommittable(
                            SqlCommittable.Kind.SCHEMA,
                            settings.run(),
                            subtask,
                            parallelism,
                            epoch,
                            batch,
                            -1,
                            schema.stream(),
                            schema,
                            null,
                            0,
                            null,
                            null));
            announced.add(e.getKey());
        }
        unannounced.clear();
        MarkerTable.Marker marker = null;
        if (!settings.bounded() && !readPositions.isEmpty()) {
            // the positions of this checkpoint's rows: its marker row commits them
            out.add(
                    SqlCommittable.end(
                            settings.run(), subtask, parallelism, epoch, batch, readPositions));
            readPositions.clear();
        } else if (settings.bounded()) {
            SqlCommittable end =
                    SqlCommittable.end(
                            settings.run(), subtask, parallelism, epoch, batch, readPositions);
            out.add(end);
            marker = CommitTransaction.marker(settings.mode(), end, out);
        }
        if (!settings.bounded() && !out.isEmpty()) {
            // the checkpoint's marker row, as its commit would insert it
            marker = CommitTransaction.marker(settings.mode(), out.get(0), out);
        }
        // a prepared transaction takes this subtask's marker row along (DESIGN §6)
        loader.finish(marker);
        if (out.stream()
                .anyMatch(
                        c ->
                                c.kind() == SqlCommittable.Kind.PREPARED
                                        || c.kind() == SqlCommittable.Kind.HELD)) {
            failures.reached(io.skippr.core.spi.FailPoint.Stage.AFTER_PREPARE);
        }
        batch++;
        return out;
    }

    @Override
    public List<SqlWriterState> snapshotState(long checkpointId) {
        return List.of(new SqlWriterState(settings.run(), subtask, epoch, seq));
    }

    @Override
    public void flush(boolean endOfInput) {}

    @Override
    public void close() throws IOException {
        try {
            if (loader != null) {
                loader.close();
            }
        } finally {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing after the work is done or failed: nothing left to save
        }
    }

    /** One stream's staging table for one schema version, until the checkpoint. */
    private static final class Segment extends StreamUnit {
        final StagingTable table;
        final long seq;

        Segment(StreamSchema schema, StagingTable table, long seq) {
            super(schema);
            this.table = table;
            this.seq = seq;
        }
    }
}
