package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.ReadPositions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How far the committed position of a file says it was read, from every run's entries. */
class CommittedFilePositionsTest {
    @TempDir Path dir;

    /** Where the position of {@code lines} says to start; its compacted form must say the same. */
    private FileEntry committed(String... lines) {
        return committedWithSkips(lines).reached();
    }

    private LocalFileSource.Committed committedWithSkips(String... lines) {
        String position = ReadPositions.of(List.of(lines));
        LocalFileSource.Committed read = readFrom(position);
        LocalFileSource.Committed compacted = readFrom(PositionCompaction.compact(position));
        assertThat(compacted.reached().from(-1))
                .as("read from the compacted position")
                .isEqualTo(read.reached().from(-1));
        assertThat(compacted.skip()).isEqualTo(read.skip());
        return read;
    }

    private LocalFileSource.Committed readFrom(String position) {
        LocalFileSource source =
                LocalFileSource.of("in/*.jsonl", "jsonl", "s", true, dir).from(position);
        return source.committed().get("/in/a.jsonl");
    }

    private static FileEntry entry(long offset, long records, long from) {
        return new FileEntry("/in/a.jsonl", offset, records, 4, "head", 0, from);
    }

    /** A --once run's entry, then a continuous run's reads after it: read to the last. */
    @Test
    void contiguousReadsReachTheLastOne() {
        FileEntry last = entry(300, 30, 10);
        assertThat(
                        committed(
                                entry(100, 10, -1).toLine(),
                                last.toLine(),
                                entry(200, 20, 10).toLine()))
                .isEqualTo(last);
    }

    /**
     * A read in part, committed up to record 15 of a split that started at record 10: resumed by
     * skipping 15 records (no byte offset is known there).
     */
    @Test
    void aReadInPartIsResumedAfterItsLastRecord() {
        String opening =
                FileEntry.opening(
                        new FileSplit(
                                "/in/a.jsonl",
                                FileFormat.JSONL,
                                new io.skippr.core.record.StreamSchema("s", List.of(), List.of()),
                                10,
                                100));
        FileEntry read =
                committed(
                        entry(100, 10, -1).toLine(),
                        ReadPositions.progress(opening, "/in/a.jsonl#15"));
        assertThat(read.records()).isEqualTo(15);
        assertThat(read.offset()).isEqualTo(-1);
    }

    /**
     * Records 11 to 20 never committed (a subtask's commit missing): read from record 10, past
     * records 21 to 30, committed already. Before, the run read records 21 to 30 again.
     */
    @Test
    void aHoleIsReadFromAndTheRecordsAfterItArePassed() throws Exception {
        FileEntry before = entry(100, 10, -1);
        LocalFileSource.Committed read =
                committedWithSkips(before.toLine(), entry(300, 30, 20).toLine());
        assertThat(read.reached()).isEqualTo(before);
        assertThat(read.skip()).containsExactly(20L, 30L);

        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 35; i++) {
            lines.append("{\"id\": ").append(i).append("}\n");
        }
        Path file = TestFiles.write(dir.resolve("a.jsonl"), lines.toString());
        long tenth = lines.indexOf("{\"id\": 11}");
        FileSplit split =
                TestFiles.split(file, FileFormat.JSONL, "s").at(10, tenth, 0).skipping(read.skip());
        FileSplit restored =
                FileSplitSerializer.INSTANCE.deserialize(
                        FileSplitSerializer.VERSION, FileSplitSerializer.INSTANCE.serialize(split));
        assertThat(restored.skip()).containsExactly(20L, 30L);

        FileSplitState state = new FileSplitState(restored);
        FileRecordEmitter emitter =
                new FileRecordEmitter(
                        new io.skippr.sources.StreamBytes(new io.skippr.sources.RecordedMetrics()));
        io.skippr.sources.CollectingOutput out = new io.skippr.sources.CollectingOutput();
        for (FileRecord record : TestFiles.readAll(restored)) {
            emitter.emitRecord(record, out, state);
        }
        assertThat(out.rows())
                .extracting(r -> ((Number) r.value(0)).longValue())
                .containsExactly(
                        11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L, 31L, 32L, 33L, 34L, 35L);
        assertThat(state.toSplit().recordsRead()).isEqualTo(35);
    }

    /**
     * Compaction keeps one entry for the reads from the start without a hole (the furthest), drops
     * an earlier generation's, and keeps those after a hole as they are.
     */
    @Test
    void aCompactedPositionKeepsTheFurthestReadAndWhatFollowsAHole() {
        String compacted =
                PositionCompaction.compact(
                        ReadPositions.of(
                                List.of(
                                        new FileEntry("/in/a.jsonl", 900, 90, 4, "old", 0, -1)
                                                .toLine(),
                                        new FileEntry("/in/a.jsonl", 100, 10, 4, "head", 1, -1)
                                                .toLine(),
                                        new FileEntry("/in/a.jsonl", 200, 20, 4, "head", 1, 10)
                                                .toLine(),
                                        new FileEntry("/in/a.jsonl", 300, 30, 4, "head", 1, 20)
                                                .toLine(),
                                        new FileEntry("/in/a.jsonl", 500, 50, 4, "head", 1, 40)
                                                .toLine())));
        assertThat(ReadPositions.entries(compacted))
                .containsExactlyInAnyOrder(
                        new FileEntry("/in/a.jsonl", 300, 30, 4, "head", 1).toLine(),
                        new FileEntry("/in/a.jsonl", 500, 50, 4, "head", 1, 40).toLine());
        assertThat(PositionCompaction.compact(compacted)).isEqualTo(compacted);
        assertThat(
                        PositionCompaction.compact(
                                ReadPositions.of(List.of("{\"upTo\": \"1\", \"xids\": []}"))))
                .as("a position of another source")
                .isNull();
    }
}
