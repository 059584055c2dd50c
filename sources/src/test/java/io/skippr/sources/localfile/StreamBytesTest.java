package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.sources.ReaderTask;
import io.skippr.sources.RegisteredReaders;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code bytesRead} counter of the LocalFile source's readers: a read file's own size. */
class StreamBytesTest {
    @TempDir Path dir;

    @Test
    void aCsvFileCountsEveryByteItHoldsHeaderIncluded() throws Exception {
        Path file = dir.resolve("in/a.csv");
        TestFiles.write(file, "id,name\n1,ä\n2,bé\n3,\"c,\"\"d\"\"\"\n");
        assertThat(bytesReadOf("in/*.csv", 3)).isEqualTo(Files.size(file));
    }

    @Test
    void aParquetFileCountsItsSizeOnceItIsRead() throws Exception {
        Path file = dir.resolve("in/a.parquet");
        Files.createDirectories(file.getParent());
        ParquetTestFiles.writeAllTypes(file);
        assertThat(bytesReadOf("in/*.parquet", 2)).isEqualTo(Files.size(file));
    }

    /** Reads the one file {@code glob} matches, continuously, and gives its bytesRead count. */
    private long bytesReadOf(String glob, int rows) throws Exception {
        LocalFileSource source = LocalFileSource.of(glob, null, "s", false, dir, 100);
        RegisteredReaders<FileSplit> coordinator = new RegisteredReaders<>(1);
        FileEnumerator enumerator = new FileEnumerator(coordinator, source, EnumState.initial());
        enumerator.onDiscovered(enumerator.discover(), null);
        enumerator.handleSplitRequest(0, "localhost");
        ReaderTask task = new ReaderTask(0);
        try (FileSourceReader reader = new FileSourceReader(task, true)) {
            reader.addSplits(coordinator.assigned(0));
            task.readUntilItSends(reader);
            assertThat(task.rows()).hasSize(rows);
            return task.metrics().count("skippr.stream.s.bytesRead");
        }
    }
}
