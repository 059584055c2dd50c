package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.record.Undecodable;
import io.skippr.core.serde.SerializerTypeInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The LocalFile source on a Flink MiniCluster (generic types disabled: no Kryo fallback). */
@SuppressWarnings("try") // CloseableIterator.close() may throw InterruptedException
class LocalFileSourceITCase {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode, int parallelism) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        return env;
    }

    private static DataStream<SourceRecord> stream(
            StreamExecutionEnvironment env, LocalFileSource source) {
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "localfile");
    }

    /**
     * The schemas and rows the source emits; the read position each split sends after its rows is
     * checked, and left out: files positions have tests of their own.
     */
    private static List<SourceRecord> collect(DataStream<SourceRecord> stream) throws Exception {
        List<SourceRecord> out = new ArrayList<>();
        java.util.Set<String> positionsOf = new java.util.HashSet<>();
        try (CloseableIterator<SourceRecord> it = stream.executeAndCollect("localfile-test")) {
            it.forEachRemaining(
                    r -> {
                        if (r instanceof io.skippr.core.record.ReadPosition p) {
                            assertThat(io.skippr.core.record.ReadPositions.entries(p.position()))
                                    .isNotEmpty();
                            positionsOf.add(p.stream());
                        } else {
                            out.add(r);
                        }
                    });
        }
        out.stream()
                .filter(r -> r instanceof Row)
                .forEach(r -> assertThat(positionsOf).contains(r.stream()));
        return out;
    }

    /**
     * Files have positions: a rerun from the committed position reads only a grown file's new
     * records, continuing its record numbers, and a file rewritten shorter again as its next
     * generation, with positions of its own (on main every rerun read every file again).
     */
    @Test
    void aRerunReadsAGrownFilesTailAndARewrittenFileAsItsNextGeneration() throws Exception {
        Path a = TestFiles.write(dir.resolve("in/a.jsonl"), "{\"id\": 1}\n{\"id\": 2}\n");
        Path b = TestFiles.write(dir.resolve("in/b.jsonl"), "{\"id\": 10}\n");
        String glob = dir.resolve("in").toString() + "/*.jsonl";

        String first = position(rerun(glob, null));
        Files.writeString(b, "{\"id\": 11}\n", java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(a, "{\"id\": 3}\n");
        List<SourceRecord> second = rerun(glob, first);
        List<SourceRecord> third = rerun(glob, position(second));

        assertThat(TestFiles.rows(second).stream().map(r -> r.position() + "=" + r.value(0)))
                .containsExactlyInAnyOrder(a + "~1#1=3", b + "#2=11");
        assertThat(TestFiles.rows(third)).as("nothing new").isEmpty();
    }

    /** A bounded read from {@code position} (null for none), read positions included. */
    private List<SourceRecord> rerun(String glob, String position) throws Exception {
        LocalFileSource source = LocalFileSource.of(glob, "jsonl", "s", true, dir).from(position);
        List<SourceRecord> out = new ArrayList<>();
        try (CloseableIterator<SourceRecord> it =
                stream(env(RuntimeExecutionMode.BATCH, 2), source).executeAndCollect("rerun")) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /** The union of a run's read positions, as a sink commits it. */
    private static String position(List<SourceRecord> records) {
        return records.stream()
                .filter(r -> r instanceof io.skippr.core.record.ReadPosition)
                .map(r -> ((io.skippr.core.record.ReadPosition) r).position())
                .reduce(io.skippr.core.record.ReadPositions::union)
                .orElseThrow();
    }

    private List<SourceRecord> runBounded(String glob, String format, int parallelism)
            throws Exception {
        LocalFileSource source = LocalFileSource.of(glob, format, "s", true, dir);
        return collect(stream(env(RuntimeExecutionMode.BATCH, parallelism), source));
    }

    @Test
    void csvWithBomAndQuotingEdgeCases() throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        Path file = dir.resolve("in/orders.csv");
        TestFiles.write(file, bom);
        Files.write(
                file,
                ("id,note,amount,day\r\n"
                                + "1,\"multi\nline, with \"\"quotes\"\"\",10.5,2024-01-31\r\n"
                                + "2,,-3,\r\n"
                                + "3,\"\",1e2,2024-02-01\r\n")
                        .getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);
        List<SourceRecord> records = runBounded("in/*.csv", null, 1);

        StreamSchema schema =
                new StreamSchema(
                        "s",
                        List.of(
                                Column.of("id", DataType.INT64),
                                Column.of("note", DataType.STRING),
                                Column.of("amount", DataType.FLOAT64),
                                Column.of("day", DataType.DATE)),
                        List.of());
        assertThat(records)
                .containsExactly(
                        new SchemaChange(schema),
                        Row.insert(
                                "s",
                                schema.version(),
                                new Object[] {
                                    "1", "multi\nline, with \"quotes\"", "10.5", "2024-01-31"
                                },
                                file + "#1"),
                        Row.insert(
                                "s",
                                schema.version(),
                                new Object[] {"2", null, "-3", null},
                                file + "#2"),
                        Row.insert(
                                "s",
                                schema.version(),
                                new Object[] {"3", "", "1e2", "2024-02-01"},
                                file + "#3"));
    }

    @Test
    void jsonlNestedValuesAndAKeyAddedMidFile() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            text.append("{\"id\":")
                    .append(i)
                    .append(",\"user\":{\"name\":\"u")
                    .append(i)
                    .append("\",\"tags\":[1,2]}}\n");
        }
        text.append("{\"id\":1001,\"user\":null,\"coupon\":{\"code\":\"X\"}}\n");
        text.append("{\"id\":1002}\n");
        Path file = TestFiles.write(dir.resolve("events.jsonl"), text.toString());
        List<SourceRecord> records = runBounded("events.jsonl", null, 1);

        StreamSchema v1 =
                new StreamSchema(
                        "s",
                        List.of(Column.of("id", DataType.INT64), Column.of("user", DataType.JSON)),
                        List.of());
        StreamSchema v2 = v1.withColumns(List.of(Column.of("coupon", DataType.JSON)));
        assertThat(v2.version()).isNotEqualTo(v1.version());
        assertThat(records).hasSize(1004);
        assertThat(records.get(0)).isEqualTo(new SchemaChange(v1));
        assertThat(records.get(1))
                .isEqualTo(
                        Row.insert(
                                "s",
                                v1.version(),
                                new Object[] {1L, "{\"name\":\"u1\",\"tags\":[1,2]}"},
                                file + "#1"));
        assertThat(records.get(1001)).isEqualTo(new SchemaChange(v2));
        assertThat(records.get(1002))
                .isEqualTo(
                        Row.insert(
                                "s",
                                v2.version(),
                                new Object[] {1001L, null, "{\"code\":\"X\"}"},
                                file + "#1001"));
        assertThat(records.get(1003))
                .isEqualTo(
                        Row.insert(
                                "s",
                                v2.version(),
                                new Object[] {1002L, null, null},
                                file + "#1002"));
    }

    @Test
    void parquetWithEveryType() throws Exception {
        Path file = dir.resolve("all.parquet");
        ParquetTestFiles.writeAllTypes(file);
        List<SourceRecord> records = runBounded("*.parquet", null, 1);
        assertThat(records).hasSize(3);
        SchemaChange change = (SchemaChange) records.get(0);
        assertThat(change.schema().columns())
                .extracting(Column::type)
                .containsExactlyElementsOf(ParquetTestFiles.allTypesColumns().values());
        assertThat(((Row) records.get(1)).values()).containsExactly(ParquetTestFiles.allTypesRow());
        assertThat(((Row) records.get(2)).values())
                .containsExactly(ParquetTestFiles.allTypesEmptyRow());
    }

    @Test
    void undecodableLinesArriveAndTheOtherLinesToo() throws Exception {
        Path csv = TestFiles.write(dir.resolve("mixed/a.csv"), "k,v\n1,a\n2,b,extra\n3,c\n");
        Files.write(
                csv,
                new byte[] {'4', ',', (byte) 0xE2, (byte) 0x82, '\n', '5', ',', 'e'},
                StandardOpenOption.APPEND);
        List<SourceRecord> records = runBounded("mixed/*.csv", null, 1);
        assertThat(TestFiles.rows(records))
                .extracting(Row::position)
                .containsExactly(csv + "#1", csv + "#3", csv + "#5");
        assertThat(TestFiles.undecodables(records))
                .containsExactly(
                        new Undecodable(
                                "s",
                                "2,b,extra",
                                "expected 2 fields as in the header but found 3",
                                csv + "#2"),
                        new Undecodable(
                                "s", "4,\uFFFD", "invalid UTF-8 byte sequence", csv + "#4"));

        Path jsonl =
                TestFiles.write(
                        dir.resolve("j/a.jsonl"), "{\"k\":1}\n{\"k\":\n[\"k\"]\n{\"k\":4}\n");
        List<SourceRecord> json = runBounded("j/*.jsonl", null, 1);
        assertThat(TestFiles.rows(json))
                .extracting(Row::position)
                .containsExactly(jsonl + "#1", jsonl + "#4");
        assertThat(TestFiles.undecodables(json))
                .extracting(Undecodable::payload, Undecodable::error)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "{\"k\":",
                                "invalid JSON at column 6: Unexpected end-of-input"
                                        + " within/between Object entries"),
                        org.assertj.core.groups.Tuple.tuple(
                                "[\"k\"]", "expected a JSON object but found an array"));
    }

    @Test
    void globOverSeveralFilesWithParallelismTwoGivesEveryRecordOnce() throws Exception {
        int files = 7;
        int perFile = 3_000;
        long expectedSum = 0;
        for (int f = 0; f < files; f++) {
            StringBuilder csv = new StringBuilder("id,name\n");
            for (int i = 0; i < perFile; i++) {
                long id = (long) f * perFile + i;
                expectedSum += id;
                csv.append(id).append(",name ").append(id).append('\n');
            }
            TestFiles.write(dir.resolve("many/part-" + f + ".csv"), csv.toString());
        }
        List<SourceRecord> records = runBounded("many/*.csv", null, 2);
        List<Row> rows = TestFiles.rows(records);
        assertThat(rows).hasSize(files * perFile);
        Set<String> positions = new HashSet<>();
        long sum = 0;
        for (Row row : rows) {
            positions.add(row.position());
            sum += Long.parseLong((String) row.value(0));
            assertThat(row.value(1)).isEqualTo("name " + row.value(0));
        }
        assertThat(positions).hasSize(files * perFile);
        assertThat(sum).isEqualTo(expectedSum);
        assertThat(TestFiles.schemaChanges(records)).hasSizeBetween(1, 2);
        assertThat(TestFiles.undecodables(records)).isEmpty();
    }

    @Test
    void boundedWithNoMatchingFileFinishesEmpty() throws Exception {
        assertThat(runBounded("nothing/*.csv", null, 2)).isEmpty();
    }

    @Test
    void corruptParquetFailsTheJobNamingTheFile() throws IOException {
        Path bad = TestFiles.write(dir.resolve("bad/x.parquet"), "PAR1 truncated");
        assertThatThrownBy(() -> runBounded("bad/*.parquet", null, 1))
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowableWithMessage(
                                                        e,
                                                        "Cannot read Parquet file "
                                                                + bad
                                                                + ": "
                                                                + bad
                                                                + " is not a Parquet file"))
                                        .isPresent());
    }

    /**
     * A continuous run reads new files and the whole lines appended to files it read (on main an
     * appended line was never read): a line still being written is read once it is complete, and a
     * last line without a line break once nobody changed the file for {@link
     * FileEnumerator#QUIET_MILLIS}.
     */
    @Test
    void continuousModeReadsNewFilesAndTheLinesAppendedToReadOnes() throws Exception {
        Path a = dir.resolve("live/a.jsonl");
        TestFiles.write(a, "{\"n\":1}\n{\"n\":2}\n");
        LocalFileSource source = LocalFileSource.of("live/*.jsonl", null, "s", false, dir, 100);
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING, 2);
        List<SourceRecord> got = new ArrayList<>();
        try (CloseableIterator<SourceRecord> it = stream(env, source).executeAndCollect("live")) {
            assertTimeoutPreemptively(
                    Duration.ofSeconds(60),
                    () -> {
                        while (TestFiles.rows(got).size() < 2) {
                            got.add(it.next());
                        }
                        // written under a hidden name, then renamed: never read half-written
                        Path tmp =
                                TestFiles.write(
                                        dir.resolve("live/.b.jsonl.tmp"),
                                        "{\"n\":3,\"extra\":\"x\"}\n");
                        Files.move(
                                tmp, dir.resolve("live/b.jsonl"), StandardCopyOption.ATOMIC_MOVE);
                        append(a, "{\"n\":4}\n{\"n\":");
                        while (TestFiles.rows(got).size() < 4) {
                            got.add(it.next());
                        }
                        append(a, "5}\n{\"n\":6}");
                        while (TestFiles.rows(got).size() < 6) {
                            got.add(it.next());
                        }
                    });
        }
        List<Row> rows = TestFiles.rows(got);
        assertThat(rows)
                .extracting(r -> r.value(0))
                .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(got).noneMatch(r -> r instanceof io.skippr.core.record.Undecodable);
        assertThat(rows)
                .extracting(Row::position)
                .containsExactlyInAnyOrder(
                        a + "#1",
                        a + "#2",
                        dir.resolve("live/b.jsonl") + "#1",
                        a + "#3",
                        a + "#4",
                        a + "#5");
    }

    private static void append(Path file, String text) throws IOException {
        Files.write(file, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
    }

    static final AtomicBoolean FAILED = new AtomicBoolean();

    /**
     * Fails once, after a checkpoint taken well into the files completed and more records went by,
     * so the job restores readers from split states in the middle of files.
     */
    static final class FailOnceAfterCheckpoint extends RichMapFunction<SourceRecord, SourceRecord>
            implements CheckpointListener {
        private long seen;
        private long seenAtCheckpoint = -1;

        @Override
        public SourceRecord map(SourceRecord value) throws Exception {
            seen++;
            if (seenAtCheckpoint < 0 && seen > 1_000) {
                // throttle the chained source until a checkpoint completes
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
            if (seenAtCheckpoint > 0
                    && seen > seenAtCheckpoint + 500
                    && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure");
            }
            return value;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            if (seenAtCheckpoint < 0 && seen > 1_000) {
                seenAtCheckpoint = seen;
            }
        }
    }

    @Test
    void restoreAfterAFailureResumesEveryFileExactly() throws Exception {
        FAILED.set(false);
        int files = 3;
        int perFile = 8_000;
        for (int f = 0; f < files; f++) {
            StringBuilder jsonl = new StringBuilder();
            for (int i = 0; i < perFile; i++) {
                jsonl.append("{\"id\":").append(f * perFile + i).append("}\n");
            }
            TestFiles.write(dir.resolve("r/p" + f + ".jsonl"), jsonl.toString());
        }
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING, 2);
        Configuration restart = new Configuration();
        restart.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        restart.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        restart.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        env.configure(restart);
        env.enableCheckpointing(100);
        LocalFileSource source = LocalFileSource.of("r/*.jsonl", null, "s", true, dir);
        DataStream<SourceRecord> mapped =
                stream(env, source)
                        .map(new FailOnceAfterCheckpoint())
                        .returns(SerializerTypeInfo.SOURCE_RECORD);
        List<SourceRecord> records = collect(mapped);
        assertThat(FAILED).isTrue();
        List<Row> rows = TestFiles.rows(records);
        Set<Long> ids = new HashSet<>();
        for (Row row : rows) {
            ids.add((Long) row.value(0));
        }
        assertThat(ids).hasSize(files * perFile);
        assertThat(rows).hasSize(files * perFile);
    }
}
