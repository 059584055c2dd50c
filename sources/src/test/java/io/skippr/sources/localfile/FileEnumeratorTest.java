package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The continuous enumerator's following of grown files, driven by hand. */
class FileEnumeratorTest {
    @TempDir Path dir;

    /**
     * A reader fails after it reported reading a file's tail: what it read since the last
     * checkpoint is rolled back, so the file is read again from the split given back, and the
     * report is forgotten. On the first version the next listing handed out a tail from the
     * report's offset in place of the split given back, and the lines between were lost
     * (bench/chaos lost 53 lines that way).
     */
    @Test
    void aSplitGivenBackIsReadAgainAndTheReportAfterItForgotten() throws Exception {
        Path file = dir.resolve("in/a.jsonl");
        TestFiles.write(file, line(1) + line(2));
        LocalFileSource source = LocalFileSource.of("in/*.jsonl", null, "s", false, dir, 100);
        FileEntry readTwo = FileEntry.of(file, Files.size(file), 2, 0);
        FileEnumerator enumerator =
                new FileEnumerator(
                        new io.skippr.sources.NoReaders<>(),
                        source,
                        new EnumState(
                                null,
                                List.of(file.toString()),
                                List.of(),
                                true,
                                Map.of(file.toString(), readTwo.toLine())));
        append(file, line(3) + line(4));
        enumerator.onDiscovered(enumerator.discover(), null);
        FileSplit tail = only(enumerator);
        assertThat(tail.recordsRead()).isEqualTo(2);
        enumerator.pendingSplits().clear(); // handed to a reader, which reads it and reports
        FileEntry readFour = FileEntry.of(file, Files.size(file), 4, 0);
        enumerator.handleSourceEvent(0, new FileRead(file.toString(), readFour.toLine()));

        enumerator.addSplitsBack(List.of(tail), 0); // the reader failed before a checkpoint
        append(file, line(5));
        enumerator.onDiscovered(enumerator.discover(), null);

        FileSplit next = only(enumerator);
        assertThat(next.recordsRead()).isEqualTo(2);
        assertThat(next.byteOffset()).isEqualTo(readTwo.offset());
    }

    private static FileSplit only(FileEnumerator enumerator) {
        assertThat(enumerator.pendingSplits()).hasSize(1);
        return enumerator.pendingSplits().iterator().next();
    }

    private static String line(int n) {
        return "{\"n\":" + n + "}\n";
    }

    private static void append(Path file, String text) throws IOException {
        Files.write(file, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
    }
}
