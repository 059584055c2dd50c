package io.skippr.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** The value checks the warehouses' row checks share. */
class RowCheckTest {
    @Test
    void datesTimestampsAndInstantsOutsideTheYears1To9999AreNamed() {
        String where = "Skippr loads into X";
        assertThat(RowCheck.outsideYears1To9999(LocalDate.of(1, 1, 1), where)).isNull();
        assertThat(RowCheck.outsideYears1To9999(LocalDate.of(9999, 12, 31), where)).isNull();
        assertThat(RowCheck.outsideYears1To9999(LocalDate.of(0, 12, 31), where))
                .isEqualTo("0000-12-31 is outside the years 1 to 9999 that Skippr loads into X");
        assertThat(RowCheck.outsideYears1To9999(LocalDateTime.of(10000, 1, 1, 0, 0), where))
                .isEqualTo("+10000-01-01 is outside the years 1 to 9999 that Skippr loads into X");
        assertThat(RowCheck.outsideYears1To9999(Instant.parse("-0001-06-01T00:00:00Z"), where))
                .isEqualTo("-0001-06-01 is outside the years 1 to 9999 that Skippr loads into X");
        assertThat(RowCheck.outsideYears1To9999(Instant.parse("2026-12-02T11:40:00Z"), where))
                .isNull();
        assertThat(RowCheck.outsideYears1To9999("0000-01-01", where)).isNull();
    }

    @Test
    void aDecimalWithMoreIntegerDigitsThanItsColumnIsNamed() {
        DataType decimal52 = DataType.decimal(5, 2);
        assertThat(RowCheck.tooManyIntegerDigits(decimal52, new BigDecimal("999.99"), "DECIMAL"))
                .isNull();
        assertThat(RowCheck.tooManyIntegerDigits(decimal52, new BigDecimal("0.001"), "DECIMAL"))
                .isNull();
        assertThat(RowCheck.tooManyIntegerDigits(decimal52, new BigDecimal("1000"), "numeric"))
                .isEqualTo("1000 has more integer digits than numeric(5,2) holds");
    }
}
