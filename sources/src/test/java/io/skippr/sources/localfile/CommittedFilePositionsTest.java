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

    private FileEntry committed(String... lines) {
        LocalFileSource source =
                LocalFileSource.of("in/*.jsonl", "jsonl", "s", true, dir)
                        .from(ReadPositions.of(List.of(lines)));
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
}
