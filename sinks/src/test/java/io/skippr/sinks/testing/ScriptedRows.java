package io.skippr.sinks.testing;

import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.serde.SerializerTypeInfo;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * A replayable test stream whose row {@code i} a {@link Script} computes: any schema (a new schema
 * version mid-stream is sent before the first row that uses it, on each subtask), any values and
 * operation. Like {@link GeneratedRows}, it can fail once when row {@code failAt} passes, using a
 * marker file so the failure survives the restart that follows it.
 */
public final class ScriptedRows {
    /** The synced-at time every scripted row carries: 2024-01-02T03:04:05.678901Z. */
    public static final long SYNCED_AT_MICROS = 1_704_164_645_678_901L;

    private ScriptedRows() {}

    /** What row {@code i} is. */
    public interface Script extends Serializable {
        StreamSchema schema(long i);

        Object[] values(long i);

        default Operation op(long i) {
            return Operation.INSERT;
        }
    }

    public static DataStream<SourceRecord> stream(
            StreamExecutionEnvironment env,
            long n,
            double perSecond,
            Script script,
            long failAt,
            Path marker) {
        DataGeneratorSource<Long> source =
                new DataGeneratorSource<>(
                        i -> i, n, RateLimiterStrategy.perSecond(perSecond), Types.LONG);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "script")
                .flatMap(
                        new ToRecords(script, failAt, marker == null ? null : marker.toString()),
                        SerializerTypeInfo.SOURCE_RECORD);
    }

    static final class ToRecords implements FlatMapFunction<Long, SourceRecord> {
        private static final long serialVersionUID = 1L;

        private final Script script;
        private final long failAt;
        private final String marker;
        private transient Map<String, Long> sent;

        ToRecords(Script script, long failAt, String marker) {
            this.script = script;
            this.failAt = failAt;
            this.marker = marker;
        }

        @Override
        public void flatMap(Long i, Collector<SourceRecord> out) throws IOException {
            if (marker != null && i == failAt && !Files.exists(Path.of(marker))) {
                Files.createFile(Path.of(marker));
                throw new IOException("injected failure at row " + i);
            }
            if (sent == null) {
                sent = new HashMap<>();
            }
            StreamSchema schema = script.schema(i);
            Long version = sent.get(schema.stream());
            if (version == null || version != schema.version()) {
                out.collect(new SchemaChange(schema));
                sent.put(schema.stream(), schema.version());
            }
            String position = schema.stream() + "#" + i;
            out.collect(
                    new Row(
                            schema.stream(),
                            schema.version(),
                            script.op(i),
                            script.values(i),
                            position,
                            SkipprId.of(schema.stream(), position),
                            SYNCED_AT_MICROS));
        }
    }
}
