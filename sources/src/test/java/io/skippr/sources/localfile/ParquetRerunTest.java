package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.ReadPositions;
import io.skippr.sources.ReaderTask;
import io.skippr.sources.RegisteredReaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Parquet file read whole is not read again by a later run. Its position said it was read to byte
 * 0 (each row's offset, 0 for Parquet, overwrote the file's size), so every later run took the file
 * for a rewritten one and loaded its rows again as its next generation: a {@code --once} run
 * repeated over one Parquet file into DuckDB held 200 rows, 100 distinct ids.
 */
class ParquetRerunTest {
    @TempDir Path dir;

    @Test
    void aParquetFileReadWholeIsNotReadAgainFromItsPosition() throws Exception {
        Path file = dir.resolve("in/a.parquet");
        Files.createDirectories(file.getParent());
        ParquetTestFiles.writeAllTypes(file);
        LocalFileSource source = LocalFileSource.of("in/*.parquet", null, "s", false, dir, 100);
        RegisteredReaders<FileSplit> coordinator = new RegisteredReaders<>(1);
        FileEnumerator enumerator = new FileEnumerator(coordinator, source, EnumState.initial());
        enumerator.onDiscovered(enumerator.discover(), null);
        enumerator.handleSplitRequest(0, "localhost");
        ReaderTask task = new ReaderTask(0);
        String entry;
        try (FileSourceReader reader = new FileSourceReader(task, true)) {
            reader.addSplits(coordinator.assigned(0));
            task.readUntilItSends(reader);
            entry = ((FileRead) task.sent().get(0)).entry();
        }
        assertThat(FileEntry.parse(entry).offset()).isEqualTo(Files.size(file));

        LocalFileSource rerun =
                LocalFileSource.of("in/*.parquet", null, "s", true, dir, 100)
                        .from(ReadPositions.of(List.of(entry)));
        FileEnumerator again =
                new FileEnumerator(new RegisteredReaders<>(1), rerun, EnumState.initial());
        again.onDiscovered(again.discover(), null);
        assertThat(again.pendingSplits()).isEmpty();
    }
}
