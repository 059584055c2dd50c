package io.skippr.sinks.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.StreamSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file name is never used twice, also after a restore at another parallelism: parallelism 2 -> 1
 * -> 2 gives the new subtask 1 no sequence number of its own, and on main it named its first file
 * as the committed first file of the old subtask 1, which its publish then replaced.
 */
class FileNamesAfterRescaleTest {
    private static final StreamSchema SCHEMA =
            new StreamSchema("orders", List.of(Column.of("id", DataType.INT64)), List.of());

    @TempDir Path dir;

    @Test
    void aSubtaskRestoredWithoutStateNamesItsFilesApartFromTheCommittedOnes() throws Exception {
        FileSinkSettings settings = FileSinks.prepare(dir, "orders", false, FileFormat.JSONL, null);
        StagedFile before = oneFile(new StagingWriter(settings, 1, 2, 0, 0, 0), 1);
        assertThat(settings.store().publish(before.staged())).isTrue();

        // restored from checkpoint 12 at parallelism 2 again, with no writer state of its own
        StagedFile after = oneFile(new StagingWriter(settings, 1, 2, 0, 12, 0), 2);
        assertThat(settings.store().publish(after.staged())).isTrue();

        assertThat(after.key()).isNotEqualTo(before.key());
        assertThat(Files.readString(dir.resolve(before.key())))
                .containsPattern("\"id\"\\s*:\\s*1\\b");
        assertThat(Files.readString(dir.resolve(after.key())))
                .containsPattern("\"id\"\\s*:\\s*2\\b");
    }

    private static StagedFile oneFile(StagingWriter writer, long id) throws Exception {
        writer.write(new SchemaChange(SCHEMA), null);
        writer.write(
                Row.insert("orders", SCHEMA.version(), new Object[] {id}, "t#" + id)
                        .identified("id" + id, 1),
                null);
        List<StagedFile> files =
                writer.prepareCommit().stream().filter(f -> !f.isMarker()).toList();
        writer.close();
        assertThat(files).hasSize(1);
        return files.get(0);
    }
}
