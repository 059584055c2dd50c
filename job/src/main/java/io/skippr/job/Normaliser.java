package io.skippr.job;

import io.skippr.core.record.Column;
import io.skippr.core.record.Deadletter;
import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.record.Undecodable;
import io.skippr.core.serde.SerializerTypeInfo;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The normalise/validate step: brings each row's values to its schema's types, checks the schema
 * (width, not-null), and gives the row its deterministic {@code _skippr_id}. A row that fails, and
 * anything the source could not decode, leaves through the {@link #DEADLETTERS} side output with
 * the reason. Schemas pass through ahead of their rows.
 */
final class Normaliser extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    static final OutputTag<Deadletter> DEADLETTERS =
            new OutputTag<>("deadletters", SerializerTypeInfo.DEADLETTER);

    private final String pipeline;
    private transient Map<String, Map<Long, StreamSchema>> schemas;
    private transient StreamCounters read;
    private transient StreamCounters deadlettered;
    private transient SkipprId.Hasher ids;

    Normaliser(String pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<SourceRecord> out) {
        if (schemas == null) {
            schemas = new HashMap<>();
            read = new StreamCounters(Progress.READ, pipeline, getRuntimeContext());
            deadlettered = new StreamCounters(Progress.DEADLETTERED, pipeline, getRuntimeContext());
            ids = new SkipprId.Hasher();
        }
        if (record instanceof SchemaChange change) {
            read.add(change.stream(), 0); // a stream's metrics show from its first schema
            deadlettered.add(change.stream(), 0);
            schemas.computeIfAbsent(change.stream(), s -> new HashMap<>())
                    .put(change.schema().version(), change.schema());
            out.collect(change);
        } else if (record instanceof Row row) {
            read.add(row.stream(), 1);
            normalise(row, ctx, out);
        } else if (record instanceof Undecodable u) {
            read.add(u.stream(), 1);
            deadletter(ctx, u.stream(), "UndecodableRecord", u.error(), u.position(), u.payload());
        } else if (record instanceof ReadPosition position) {
            out.collect(position);
        }
    }

    private void normalise(Row row, Context ctx, Collector<SourceRecord> out) {
        StreamSchema schema = schemas.getOrDefault(row.stream(), Map.of()).get(row.schemaVersion());
        if (schema == null) {
            deadletter(
                    ctx,
                    row.stream(),
                    "SchemaViolation",
                    "the row's schema version " + row.schemaVersion() + " was never announced",
                    row.position(),
                    Payloads.of(null, row));
            return;
        }
        if (row.values().length != schema.size()) {
            deadletter(
                    ctx,
                    row.stream(),
                    "SchemaViolation",
                    "expected " + schema.size() + " values, found " + row.values().length,
                    row.position(),
                    Payloads.of(schema, row));
            return;
        }
        Object[] values = row.values();
        Object[] coerced = null;
        for (int i = 0; i < values.length; i++) {
            Column column = schema.columns().get(i);
            Object value;
            try {
                value = Coercion.coerce(values[i], column.type());
            } catch (CoercionException e) {
                deadletter(
                        ctx,
                        row.stream(),
                        "TypeCoercion",
                        "column " + column.name() + ": " + e.getMessage(),
                        row.position(),
                        Payloads.of(schema, row));
                return;
            }
            if (value == null && !column.nullable()) {
                deadletter(
                        ctx,
                        row.stream(),
                        "SchemaViolation",
                        "column " + column.name() + " is not nullable, found null",
                        row.position(),
                        Payloads.of(schema, row));
                return;
            }
            if (value != values[i]) {
                if (coerced == null) {
                    coerced = values.clone();
                }
                coerced[i] = value;
            }
        }
        Row normalised = coerced == null ? row : row.withValues(coerced);
        out.collect(normalised.identified(ids.of(row.stream(), row.position()), nowMicros()));
    }

    private void deadletter(
            Context ctx,
            String stream,
            String errorClass,
            String message,
            String position,
            String payload) {
        deadlettered.add(stream, 1);
        ctx.output(
                DEADLETTERS,
                new Deadletter(
                        pipeline,
                        stream,
                        Deadletter.TRANSFORM,
                        errorClass,
                        message,
                        nowMicros(),
                        position,
                        payload));
    }

    static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
