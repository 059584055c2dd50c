package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaInferenceTest {
    @TempDir Path dir;

    @Test
    void csvTypesFromTheFirstThousandRecordsAndColumnsFromEveryHeader() throws IOException {
        StringBuilder first = new StringBuilder("id,flag,score,day,at,local,note\n");
        for (int i = 0; i < 1000; i++) {
            first.append(i)
                    .append(",true,")
                    .append(i)
                    .append(".5,2024-01-02,")
                    .append("2024-01-02T03:04:05Z,2024-01-02T03:04:05,\n");
        }
        first.append("x,maybe,s,d,a,l,n\n"); // record 1001: outside the sample
        Path a = TestFiles.write(dir.resolve("a.csv"), first.toString());
        Path b = TestFiles.write(dir.resolve("b.csv"), "id,extra\nabc,12\n,13\n");
        StreamSchema schema = SchemaInference.extend("s", FileFormat.CSV, null, List.of(a, b));
        assertThat(schema.columns())
                .containsExactly(
                        Column.of("id", DataType.INT64),
                        Column.of("flag", DataType.BOOLEAN),
                        Column.of("score", DataType.FLOAT64),
                        Column.of("day", DataType.DATE),
                        Column.of("at", DataType.TIMESTAMP_TZ),
                        Column.of("local", DataType.TIMESTAMP),
                        Column.of("note", DataType.STRING),
                        Column.of("extra", DataType.INT64));
        assertThat(schema.primaryKey()).isEmpty();

        // a later file (continuous mode) adds its new columns, typed from its own records
        Path c = TestFiles.write(dir.resolve("c.csv"), "id,more\n1,2.5\n");
        StreamSchema next = SchemaInference.extend("s", FileFormat.CSV, schema, List.of(c));
        assertThat(next)
                .isEqualTo(schema.withColumns(List.of(Column.of("more", DataType.FLOAT64))));
        assertThat(SchemaInference.extend("s", FileFormat.CSV, next, List.of(a))).isSameAs(next);
    }

    @Test
    void csvHeaderNamesAreMadeUnique() throws IOException {
        Path a = TestFiles.write(dir.resolve("a.csv"), "x,,x\n1,2,3\n");
        assertThat(SchemaInference.extend("s", FileFormat.CSV, null, List.of(a)).columns())
                .extracting(Column::name)
                .containsExactly("x", "column_2", "x_2");
    }

    @Test
    void jsonlKeysInOrderOfAppearanceAcrossTheFirstFiles() throws IOException {
        Path a = TestFiles.write(dir.resolve("a.jsonl"), "{\"b\":1,\"n\":null}\n{\"a\":\"x\"}\n");
        Path b = TestFiles.write(dir.resolve("b.jsonl"), "not json\n{\"c\":[1],\"n\":2.5}\n");
        assertThat(SchemaInference.extend("s", FileFormat.JSONL, null, List.of(a, b)).columns())
                .containsExactly(
                        Column.of("b", DataType.INT64),
                        Column.of("a", DataType.STRING),
                        Column.of("c", DataType.JSON),
                        Column.of("n", DataType.FLOAT64));
        assertThat(SchemaInference.extend("s", FileFormat.JSONL, null, List.of())).isNull();
    }
}
