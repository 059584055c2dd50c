package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetReaderTest {
    @TempDir Path dir;

    @Test
    void everyTypeMapsToItsDataTypeAndJavaClass() throws IOException {
        Path file = dir.resolve("all.parquet");
        ParquetTestFiles.writeAllTypes(file);
        FileSplit split = TestFiles.split(file, FileFormat.PARQUET, "all");
        Map<String, DataType> types = new LinkedHashMap<>();
        for (Column c : split.schema().columns()) {
            types.put(c.name(), c.type());
        }
        assertThat(types).containsExactlyEntriesOf(ParquetTestFiles.allTypesColumns());
        assertThat(split.schema().primaryKey()).isEmpty();

        List<Row> rows = TestFiles.rows(TestFiles.readAll(split));
        assertThat(rows).hasSize(2);
        Object[] expected = ParquetTestFiles.allTypesRow();
        for (int i = 0; i < expected.length; i++) {
            assertThat(rows.get(0).value(i))
                    .as(split.schema().columns().get(i).name())
                    .isEqualTo(expected[i]);
            DataType type = split.schema().columns().get(i).type();
            assertThat(rows.get(0).value(i)).isInstanceOf(type.javaClass());
        }
        assertThat(rows.get(1).values()).containsExactly(ParquetTestFiles.allTypesEmptyRow());
        assertThat(rows).extracting(Row::position).containsExactly(file + "#1", file + "#2");
    }

    @Test
    void resumeSkipsRowGroupsThenRows() throws IOException {
        Path file = dir.resolve("n.parquet");
        ParquetTestFiles.writeNumbers(file, 1, 20_000);
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
            assertThat(r.getRowGroups().size()).isGreaterThan(2);
        }
        FileSplit split = TestFiles.split(file, FileFormat.PARQUET, "n");
        List<FileRecord> all = TestFiles.readAll(split);
        assertThat(all).hasSize(20_000);
        for (long done : List.of(0L, 1L, 12_345L, 19_999L, 20_000L)) {
            FileSplit state =
                    new FileSplit(file.toString(), FileFormat.PARQUET, split.schema(), done, 0);
            List<FileRecord> rest = TestFiles.readAll(state);
            assertThat(rest).hasSize((int) (20_000 - done));
            if (!rest.isEmpty()) {
                assertThat(rest.get(0).record()).isEqualTo(all.get((int) done).record());
                assertThat(((Row) rest.get(0).record()).values())
                        .containsExactly(done + 1, "n" + (done + 1));
            }
        }
    }

    @Test
    void corruptFilesFailNamingTheFile() throws IOException {
        Path garbage = TestFiles.write(dir.resolve("garbage.parquet"), "not parquet at all");
        assertThatThrownBy(
                        () ->
                                SchemaInference.extend(
                                        "s", FileFormat.PARQUET, null, List.of(garbage)))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("Cannot read Parquet file " + garbage + ": ");

        Path broken = dir.resolve("broken.parquet");
        ParquetTestFiles.writeNumbers(broken, 1, 5_000);
        FileSplit split = TestFiles.split(broken, FileFormat.PARQUET, "s");
        try (RandomAccessFile raf = new RandomAccessFile(broken.toFile(), "rw")) {
            raf.seek(4); // the first page header
            raf.write(new byte[64]);
        }
        assertThatThrownBy(() -> TestFiles.readAll(split))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("Cannot read Parquet file " + broken + ": ");
    }
}
