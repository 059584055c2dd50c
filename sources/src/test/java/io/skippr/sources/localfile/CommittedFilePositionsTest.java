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

    /** What the position of {@code lines} says; its compacted form must say the same. */
    private FileEntry committed(String... lines) {
        String position = ReadPositions.of(List.of(lines));
        FileEntry read = readFrom(position);
        assertThat(readFrom(PositionCompaction.compact(position)).from(-1))
                .as("read from the compacted position")
                .isEqualTo(read.from(-1));
        return read;
    }

    private FileEntry readFrom(String position) {
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

    /** Records 10 to 20 never committed (a subtask's commit missing): read from record 10. */
    @Test
    void aHoleIsReadFrom() {
        FileEntry before = entry(100, 10, -1);
        assertThat(committed(before.toLine(), entry(300, 30, 20).toLine())).isEqualTo(before);
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
