package io.skippr.sinks.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every type written in every format reads back, through DuckDB, as the value it was. */
class RowFileWriterTest {
    static final StreamSchema SCHEMA =
            new StreamSchema(
                    "All Types",
                    List.of(
                            Column.of("b", DataType.BOOLEAN),
                            Column.of("i16", DataType.INT16),
                            Column.of("i32", DataType.INT32),
                            Column.of("i64", DataType.INT64),
                            Column.of("f32", DataType.FLOAT32),
                            Column.of("f64", DataType.FLOAT64),
                            Column.of("amount", DataType.decimal(12, 2)),
                            Column.of("big", DataType.decimal(0, 0)),
                            Column.of("s", DataType.STRING),
                            Column.of("j", DataType.JSON),
                            Column.of("u", DataType.UUID),
                            Column.of("bytes", DataType.BYTES),
                            Column.of("d", DataType.DATE),
                            Column.of("t", DataType.TIME),
                            Column.of("ts", DataType.TIMESTAMP),
                            Column.of("tstz", DataType.TIMESTAMP_TZ)),
                    List.of());

    static final Object[] VALUES = {
        true,
        (short) -7,
        42,
        9_000_000_000L,
        1.5f,
        Double.NaN,
        new BigDecimal("1234567890.12"),
        new BigDecimal("123456789012345678901234567890.000001"),
        "ünïcødé, \"quoted\"\nline",
        "{\"a\": [1, 2]}",
        UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
        new byte[] {0, 1, 2, (byte) 255},
        LocalDate.of(2024, 2, 29),
        LocalTime.of(23, 59, 58, 123_456_000),
        LocalDateTime.of(2024, 5, 1, 10, 0, 0, 500_000_000),
        Instant.parse("2024-05-01T10:00:00.123456Z")
    };

    @TempDir Path dir;

    private Path write(FileFormat format, String compression) throws Exception {
        Path file =
                dir.resolve(compression + "." + FileSinkSettings.extension(format, compression));
        Row full =
                new Row(
                        "All Types",
                        SCHEMA.version(),
                        io.skippr.core.record.Operation.INSERT,
                        VALUES,
                        "p#1",
                        "id-1",
                        1_714_557_600_000_000L);
        Row nulls =
                new Row(
                        "All Types",
                        SCHEMA.version(),
                        io.skippr.core.record.Operation.INSERT,
                        new Object[SCHEMA.size()],
                        "p#2",
                        "id-2",
                        1_714_557_600_000_000L);
        try (RowFileWriter writer = RowFileWriter.open(format, compression, SCHEMA, file)) {
            writer.write(full);
            writer.write(nulls);
        }
        assertThat(Files.size(file)).isPositive();
        return file;
    }

    private List<List<Object>> read(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            List<List<Object>> rows = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    @Test
    void parquetKeepsEveryTypeExactly() throws Exception {
        for (String codec : List.of("snappy", "zstd", "gzip", "none")) {
            Path file = write(FileFormat.PARQUET, codec);
            List<List<Object>> rows =
                    read(
                            "SELECT b, i16, i32, i64, f32, isnan(f64), amount::VARCHAR,"
                                    + " big, s, j::VARCHAR, u::VARCHAR, hex(bytes), d::VARCHAR, t::VARCHAR,"
                                    + " ts::VARCHAR, epoch_us(tstz), _skippr_id, epoch_us(_skippr_synced_at)"
                                    + " FROM read_parquet('"
                                    + file
                                    + "') ORDER BY _skippr_id");
            assertThat(rows).hasSize(2);
            assertThat(rows.get(0))
                    .containsExactly(
                            true,
                            (short) -7,
                            42,
                            9_000_000_000L,
                            1.5f,
                            true,
                            "1234567890.12",
                            "123456789012345678901234567890.000001",
                            "ünïcødé, \"quoted\"\nline",
                            "{\"a\": [1, 2]}",
                            "123e4567-e89b-12d3-a456-426614174000",
                            "000102FF",
                            "2024-02-29",
                            "23:59:58.123456",
                            "2024-05-01 10:00:00.5",
                            1_714_557_600_123_456L,
                            "id-1",
                            1_714_557_600_000_000L);
            assertThat(rows.get(1).subList(0, 16)).containsOnlyNulls();
        }
    }

    @Test
    void jsonLinesReadBackWithTheirTypes() throws Exception {
        Path file = write(FileFormat.JSONL, "none");
        List<List<Object>> rows =
                read(
                        "SELECT i64, amount::VARCHAR, s, j.a[2]::INT, u, d,"
                                + " f64, _skippr_id FROM read_json('"
                                + file
                                + "', format = 'newline_delimited')"
                                + " ORDER BY _skippr_id");
        assertThat(rows.get(0))
                .containsExactly(
                        9_000_000_000L,
                        "1234567890.12",
                        "ünïcødé, \"quoted\"\nline",
                        2,
                        UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
                        LocalDate.of(2024, 2, 29),
                        "NaN",
                        "id-1");
        assertThat(rows.get(1).get(0)).isNull();
    }

    /** PostgreSQL's json keeps line breaks between tokens: each row still takes one line. */
    @Test
    void aJsonValueWithLineBreaksStaysOnItsRowsLine() throws Exception {
        StreamSchema schema =
                new StreamSchema("j", List.of(Column.of("j", DataType.JSON)), List.of());
        Path file = dir.resolve("j.jsonl");
        String[] values = {"{\r\n  \"a\": [1,\n 2],\n  \"s\": \"x\\ny\"\n}", "[\n]"};
        try (RowFileWriter writer = RowFileWriter.open(FileFormat.JSONL, "none", schema, file)) {
            for (int i = 0; i < values.length; i++) {
                writer.write(
                        new Row(
                                "j",
                                schema.version(),
                                io.skippr.core.record.Operation.INSERT,
                                new Object[] {values[i]},
                                "p#" + i,
                                "id-" + i,
                                0L));
            }
        }
        assertThat(Files.readAllLines(file)).hasSize(2);
        assertThat(
                        read(
                                "SELECT json_type(j), json_extract_string(j, '$.a[1]'),"
                                        + " json_extract_string(j, '$.s') FROM read_json('"
                                        + file
                                        + "', format = 'newline_delimited') ORDER BY _skippr_id"))
                .containsExactly(
                        Arrays.asList("OBJECT", "2", "x\ny"), Arrays.asList("ARRAY", null, null));
    }

    @Test
    void csvQuotesWhatNeedsQuotingAndGzipWorks() throws Exception {
        Path file = write(FileFormat.CSV, "gzip");
        List<List<Object>> rows =
                read(
                        "SELECT i64, s, amount, _skippr_id FROM read_csv('"
                                + file
                                + "', header = true, all_varchar = true) ORDER BY _skippr_id");
        assertThat(rows.get(0))
                .containsExactly(
                        "9000000000", "ünïcødé, \"quoted\"\nline", "1234567890.12", "id-1");
        assertThat(rows.get(1)).containsExactly(null, null, null, "id-2");
    }
}
