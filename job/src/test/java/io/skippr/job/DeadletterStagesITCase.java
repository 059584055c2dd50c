package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Deadletter;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.record.Undecodable;
import io.skippr.core.serde.SerializerTypeInfo;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.RowCheck;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinks;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Which records become deadletters at which stage, and what their envelopes hold. */
class DeadletterStagesITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = new MiniClusterExtension();

    static final StreamSchema SCHEMA =
            new StreamSchema(
                    "orders",
                    List.of(
                            new Column("id", DataType.INT64, false),
                            Column.of("amount", DataType.decimal(6, 2)),
                            Column.of("at", DataType.TIMESTAMP_TZ)),
                    List.of("id"));

    @TempDir Path dir;

    private static Row row(String position, Object... values) {
        return Row.insert("orders", SCHEMA.version(), values, position);
    }

    @Test
    void transformAndLoadFailuresLeaveThroughTheSideOutputWithTheirReason() throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        List<SourceRecord> input =
                List.of(
                        new SchemaChange(SCHEMA),
                        row("orders|id=1", 1L, "12.50", "2026-11-01T10:00:00Z"),
                        row("orders|id=2", "two", "1.00", null),
                        row("orders|id=3", 3L, "12345.678", null),
                        row("orders|id=4", null, "1.00", null),
                        row("orders|id=5", 5L, "1.00", Instant.parse("+300000-01-01T00:00:00Z")),
                        new Undecodable(
                                "orders", "{not json", "invalid JSON: unexpected end", "f#9"));
        DataStream<SourceRecord> source =
                env.fromData(SerializerTypeInfo.SOURCE_RECORD, input.toArray(SourceRecord[]::new));
        SingleOutputStreamOperator<SourceRecord> normalised =
                source.process(new Normaliser("p"), SerializerTypeInfo.SOURCE_RECORD);
        var loadCheck =
                FileSinks.sink(
                                FileSinks.prepare(dir, "p", true, FileFormat.PARQUET, null),
                                FailPoint.NONE)
                        .loadCheck();
        SingleOutputStreamOperator<SourceRecord> loadable =
                normalised.process(
                        new LoadChecker("p", loadCheck), SerializerTypeInfo.SOURCE_RECORD);
        DataStream<String> out =
                loadable.map(
                                r ->
                                        r instanceof Row row
                                                ? "row " + row.position() + " " + row.id()
                                                : "schema",
                                Types.STRING)
                        .union(
                                normalised
                                        .getSideOutput(Normaliser.DEADLETTERS)
                                        .union(loadable.getSideOutput(Normaliser.DEADLETTERS))
                                        .map(DeadletterStagesITCase::describe, Types.STRING));

        List<String> results = new ArrayList<>();
        out.executeAndCollect().forEachRemaining(results::add);

        assertThat(results)
                .containsExactlyInAnyOrder(
                        "schema",
                        "row orders|id=1 "
                                + io.skippr.core.record.SkipprId.of("orders", "orders|id=1"),
                        "transform TypeCoercion column id: expected INT64, found 'two' @orders|id=2"
                                + " {\"id\":\"two\",\"amount\":\"1.00\",\"at\":null}",
                        "transform TypeCoercion column amount: expected DECIMAL(6,2), found '12345.678'"
                                + " @orders|id=3 {\"id\":3,\"amount\":\"12345.678\",\"at\":null}",
                        "transform SchemaViolation column id is not nullable, found null @orders|id=4"
                                + " {\"id\":null,\"amount\":\"1.00\",\"at\":null}",
                        "load UnloadableValue column at: +300000-01-01T00:00:00Z is outside the range of"
                                + " Parquet timestamps (microseconds since 1970 in 64 bits) @orders|id=5"
                                + " {\"id\":5,\"amount\":1.00,\"at\":\"+300000-01-01T00:00:00Z\"}",
                        "transform UndecodableRecord invalid JSON: unexpected end @f#9 {not json");
    }

    /**
     * A sink's row check and its load probe run chained in one task and both count load-stage
     * deadletters of a stream: before, the second to register its count failed the job ("The
     * accumulator 'skippr.load-deadlettered.orders' already exists").
     */
    @Test
    void twoLoadChecksInOneTaskBothDeadletterTheSameStream() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        DataStream<SourceRecord> source =
                env.fromData(
                        SerializerTypeInfo.SOURCE_RECORD,
                        new SchemaChange(SCHEMA),
                        row("orders|id=1", 1L, "1.00", null),
                        row("orders|id=2", 2L, "2.00", null),
                        row("orders|id=3", 3L, "3.00", null));
        RowCheck refuseTwo = (schema, r) -> r.position().endsWith("=2") ? "two" : null;
        RowCheck refuseThree = (schema, r) -> r.position().endsWith("=3") ? "three" : null;
        SingleOutputStreamOperator<SourceRecord> first =
                source.process(new LoadChecker("p", refuseTwo), SerializerTypeInfo.SOURCE_RECORD);
        SingleOutputStreamOperator<SourceRecord> second =
                first.process(new LoadChecker("p", refuseThree), SerializerTypeInfo.SOURCE_RECORD);
        DataStream<String> out =
                first.getSideOutput(Normaliser.DEADLETTERS)
                        .union(second.getSideOutput(Normaliser.DEADLETTERS))
                        .map(d -> d.stage() + " " + d.errorMessage(), Types.STRING);

        var result = out.executeAndCollect("two load checks", 10);

        assertThat(result).containsExactlyInAnyOrder("load two", "load three");
    }

    private static String describe(Deadletter d) {
        assertThat(d.pipeline()).isEqualTo("p");
        assertThat(d.stream()).isEqualTo("orders");
        assertThat(d.failedAtMicros()).isPositive();
        return d.stage()
                + " "
                + d.errorClass()
                + " "
                + d.errorMessage()
                + " @"
                + d.position()
                + " "
                + d.payload();
    }
}
