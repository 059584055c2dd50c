package io.skippr.sinks.bigquery;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class BigQueryRowCheckTest {
    @Test
    void aDecimalOverItsNumericColumnsDigitsIsRefused() {
        DataType numeric = DataType.decimal(5, 2);
        assertThat(BigQueryRowCheck.problem(numeric, new BigDecimal("999.99"))).isNull();
        assertThat(BigQueryRowCheck.problem(numeric, new BigDecimal("1000.00")))
                .isEqualTo("1000.00 has more integer digits than NUMERIC(5,2) holds");
        assertThat(BigQueryRowCheck.problem(numeric, new BigDecimal("1.001")))
                .isEqualTo("1.001 has more fraction digits than NUMERIC(5,2) holds");
        assertThat(BigQueryRowCheck.problem(numeric, new BigDecimal("1.100"))).isNull();
    }

    @Test
    void anUnstatedDecimalFitsBigNumericOrIsRefused() {
        DataType unstated = DataType.decimal(0, 0);
        assertThat(BigQueryRowCheck.problem(unstated, new BigDecimal("1e37"))).isNull();
        assertThat(BigQueryRowCheck.problem(unstated, new BigDecimal("1e38")))
                .isEqualTo("100000000000000000000000000000000000000 does not fit BIGNUMERIC");
    }

    @Test
    void datesOutsideTheYears1To9999AreRefused() {
        assertThat(BigQueryRowCheck.problem(DataType.DATE, LocalDate.of(9999, 12, 31))).isNull();
        assertThat(BigQueryRowCheck.problem(DataType.DATE, LocalDate.of(10000, 1, 1)))
                .isEqualTo("+10000-01-01 is outside the years 1 to 9999 that BigQuery stores");
        assertThat(
                        BigQueryRowCheck.problem(
                                DataType.TIMESTAMP, LocalDateTime.of(0, 12, 31, 23, 59)))
                .isEqualTo("0000-12-31 is outside the years 1 to 9999 that BigQuery stores");
        assertThat(
                        BigQueryRowCheck.problem(
                                DataType.TIMESTAMP_TZ, Instant.parse("+10000-01-01T00:00:00Z")))
                .isEqualTo("+10000-01-01 is outside the years 1 to 9999 that BigQuery stores");
    }
}
