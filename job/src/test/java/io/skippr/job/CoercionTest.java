package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CoercionTest {
    /** The rule as the SQL standard states it: fraction digits and integer digits, each bounded. */
    private static boolean fitsByDigitCount(BigDecimal d, DataType type) {
        return d.scale() <= type.scale()
                && d.precision() - d.scale() <= type.precision() - type.scale();
    }

    @Test
    void decimalsFitTheirTypeByFractionAndIntegerDigits() {
        DataType money = DataType.decimal(12, 2);
        assertThat(Coercion.fits(new BigDecimal("9999999999.99"), money)).isTrue();
        assertThat(Coercion.fits(new BigDecimal("-9999999999.99"), money)).isTrue();
        assertThat(Coercion.fits(new BigDecimal("10000000000.00"), money)).isFalse();
        assertThat(Coercion.fits(new BigDecimal("1.234"), money)).isFalse();
        assertThat(Coercion.fits(new BigDecimal("1E+9"), money)).isTrue();
        assertThat(Coercion.fits(new BigDecimal("1E+10"), money)).isFalse();
        assertThat(Coercion.fits(new BigDecimal("0.00"), DataType.decimal(2, 2))).isTrue();
        assertThat(Coercion.fits(new BigDecimal("99999999999999999999"), DataType.decimal(20, 0)))
                .isTrue();
        assertThat(Coercion.fits(new BigDecimal("100000000000000000000"), DataType.decimal(20, 0)))
                .isFalse();
    }

    @Test
    void theLongComparisonAgreesWithTheDigitCount() {
        Random random = new Random(7);
        for (int i = 0; i < 50_000; i++) {
            int bits = 1 + random.nextInt(70);
            BigInteger unscaled = new BigInteger(bits, random);
            if (random.nextBoolean()) {
                unscaled = unscaled.negate();
            }
            if (random.nextInt(4) == 0) { // just below and at a power of ten
                unscaled =
                        BigInteger.TEN
                                .pow(random.nextInt(22))
                                .subtract(BigInteger.ONE)
                                .add(BigInteger.valueOf(random.nextInt(2)));
            }
            BigDecimal d = new BigDecimal(unscaled, random.nextInt(24) - 4);
            int precision = 1 + random.nextInt(30);
            DataType type = DataType.decimal(precision, random.nextInt(precision + 1));
            assertThat(Coercion.fits(d, type))
                    .as("%s in %s", d.toPlainString(), type)
                    .isEqualTo(fitsByDigitCount(d, type));
        }
    }
}
