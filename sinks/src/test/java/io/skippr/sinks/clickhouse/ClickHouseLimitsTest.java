package io.skippr.sinks.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Values ClickHouse 18.16 would silently store as something else become load deadletters. */
class ClickHouseLimitsTest {
    private static final StreamSchema SCHEMA =
            new StreamSchema(
                    "t",
                    List.of(
                            Column.of("d", DataType.DATE),
                            Column.of("ts", DataType.TIMESTAMP),
                            Column.of("tstz", DataType.TIMESTAMP_TZ),
                            Column.of("f", DataType.FLOAT64),
                            Column.of("dec", DataType.decimal(5, 2)),
                            Column.of("num", DataType.decimal(0, 0))),
                    List.of());

    private static String problem(Object... values) {
        return new ClickHouseLimits()
                .problem(SCHEMA, Row.insert("t", SCHEMA.version(), values, "p"));
    }

    @Test
    void valuesWithinTheServersTypesPass() {
        assertThat(
                        problem(
                                LocalDate.of(1970, 1, 1),
                                LocalDateTime.of(2105, 12, 31, 23, 59, 59, 999_999_000),
                                Instant.EPOCH,
                                1e-310,
                                new BigDecimal("999.990"),
                                new BigDecimal("1e400")))
                .isNull();
        assertThat(problem(null, null, null, null, null, null)).isNull();
    }

    @Test
    void valuesOutsideThemNameTheColumnAndTheRange() {
        assertThat(problem(LocalDate.of(1969, 12, 31), null, null, null, null, null))
                .isEqualTo(
                        "column d: 1969-12-31 is outside the range of ClickHouse Date (1970-01-01"
                                + " to 2105-12-31)");
        assertThat(problem(null, LocalDateTime.of(2106, 1, 1, 0, 0), null, null, null, null))
                .startsWith(
                        "column ts: 2106-01-01T00:00 is outside the range of ClickHouse DateTime");
        assertThat(
                        problem(
                                null,
                                null,
                                Instant.parse("1969-12-31T23:59:59.999999Z"),
                                null,
                                null,
                                null))
                .startsWith("column tstz: ");
        assertThat(problem(null, null, null, -Double.MIN_VALUE, null, null))
                .isEqualTo(
                        "column f: -4.9E-324 is the smallest subnormal double, which ClickHouse reads as 0");
        assertThat(problem(null, null, null, null, new BigDecimal("1000.00"), null))
                .isEqualTo("column dec: 1000.00 does not fit ClickHouse Decimal(5, 2)");
        assertThat(problem(null, null, null, null, new BigDecimal("0.001"), null))
                .isEqualTo("column dec: 0.001 does not fit ClickHouse Decimal(5, 2)");
    }
}
