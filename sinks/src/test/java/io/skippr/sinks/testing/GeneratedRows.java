package io.skippr.sinks.testing;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.serde.SerializerTypeInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * A replayable test stream of {@code n} rows of the {@code events} stream: row {@code i} holds
 * {@code (i, "name-i", i * 1.5)}. Optionally fails once, when row {@code failAt} passes, using a
 * marker file so the failure survives the restart that follows it.
 */
public final class GeneratedRows {
    public static final StreamSchema SCHEMA =
            new StreamSchema(
                    "events",
                    List.of(
                            Column.of("n", DataType.INT64),
                            Column.of("name", DataType.STRING),
                            Column.of("score", DataType.FLOAT64)),
                    List.of("n"),
                    "n");

    private GeneratedRows() {}

    public static DataStream<SourceRecord> stream(
            StreamExecutionEnvironment env, long n, double perSecond, long failAt, Path marker) {
        DataGeneratorSource<Long> source =
                new DataGeneratorSource<>(
                        i -> i, n, RateLimiterStrategy.perSecond(perSecond), Types.LONG);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "generator")
                .flatMap(
                        new ToRows(failAt, marker == null ? null : marker.toString()),
                        SerializerTypeInfo.SOURCE_RECORD);
    }

    /** The schema on each subtask first, then rows; fails once at {@code failAt}. */
    static final class ToRows implements FlatMapFunction<Long, SourceRecord> {
        private static final long serialVersionUID = 1L;

        private final long failAt;
        private final String marker;
        private transient boolean schemaSent;

        ToRows(long failAt, String marker) {
            this.failAt = failAt;
            this.marker = marker;
        }

        @Override
        public void flatMap(Long i, Collector<SourceRecord> out) throws IOException {
            if (marker != null && i == failAt && !Files.exists(Path.of(marker))) {
                Files.createFile(Path.of(marker));
                throw new IOException("injected failure at row " + i);
            }
            if (!schemaSent) {
                out.collect(new SchemaChange(SCHEMA));
                schemaSent = true;
            }
            String position = "events#" + i;
            out.collect(
                    new Row(
                            "events",
                            SCHEMA.version(),
                            io.skippr.core.record.Operation.INSERT,
                            new Object[] {i, "name-" + i, i * 1.5},
                            position,
                            SkipprId.of("events", position),
                            1L));
        }
    }
}
