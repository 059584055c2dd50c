package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What PostgreSQL cannot store becomes a deadletter, not a failed COPY. */
class PostgresRowCheckTest {
    private final PostgresRowCheck check = new PostgresRowCheck();

    private String problem(DataType type, Object value) {
        StreamSchema schema = new StreamSchema("s", List.of(Column.of("v", type)), List.of());
        return check.problem(schema, Row.insert("s", schema.version(), new Object[] {value}, "p"));
    }

    @Test
    void storableValuesPass() {
        assertThat(problem(DataType.STRING, "tab\there \u0001 ü 😀")).isNull();
        assertThat(problem(DataType.JSON, "{\"a\": [1, \"\\u0001\"]}")).isNull();
        assertThat(problem(DataType.decimal(5, 2), new BigDecimal("999.994"))).isNull();
        assertThat(problem(DataType.decimal(0, 0), new BigDecimal("1E+1000"))).isNull();
        assertThat(problem(DataType.FLOAT64, Double.NaN)).isNull();
        assertThat(problem(DataType.DATE, LocalDate.of(-4713, 11, 24))).isNull();
        assertThat(problem(DataType.STRING, null)).isNull();
    }

    @Test
    void unstorableValuesAreNamed() {
        assertThat(problem(DataType.STRING, "a\u0000b"))
                .isEqualTo("column v: PostgreSQL text cannot hold the NUL character (U+0000)");
        assertThat(problem(DataType.JSON, "{\"a\": \"\\u0000\"}"))
                .isEqualTo("column v: PostgreSQL jsonb cannot hold \\u0000 in a string");
        assertThat(problem(DataType.JSON, "{\"a\": ")).startsWith("column v: not valid JSON");
        assertThat(problem(DataType.JSON, "1 2")).isEqualTo("column v: text after the JSON value");
        assertThat(problem(DataType.decimal(5, 2), new BigDecimal("999.995")))
                .isEqualTo(
                        "column v: the value 999.995 does not fit numeric(5,2) (at most 3 digits"
                                + " before the point)");
        assertThat(problem(DataType.DATE, LocalDate.of(-5000, 1, 1)))
                .contains("outside PostgreSQL's range");
        assertThat(problem(DataType.TIMESTAMP_TZ, Instant.parse("+300000-01-01T00:00:00Z")))
                .contains("outside PostgreSQL's range");
    }
}
