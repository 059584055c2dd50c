package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** numeric's binary send format, against values worked out by hand from PostgreSQL's numeric.c. */
class PgCopyTest {
    private static String numeric(String value) {
        CopyBuffer buf = new CopyBuffer(16);
        PgCopy.numeric(buf, new BigDecimal(value));
        return HexFormat.of().formatHex(buf.bytes(), 0, buf.size());
    }

    @Test
    void textIsUtf8WithALoneSurrogateAsAQuestionMark() {
        CopyBuffer buf = new CopyBuffer(2);
        buf.writeUtf8("a\u00e9\u20ac\ud83d\ude00\ud800z");
        assertThat(java.util.Arrays.copyOf(buf.bytes(), buf.size()))
                .containsExactly(
                        0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0x3f, 0x7a);
    }

    @Test
    void numericsAreBase10000DigitsWithWeightSignAndScale() {
        // length, ndigits, weight, sign, dscale, digits
        assertThat(numeric("12345.678"))
                .isEqualTo(
                        "0000000e" + "0003" + "0001" + "0000" + "0003" + "0001" + "0929" + "1a7c");
        assertThat(numeric("-0.01"))
                .isEqualTo("0000000a" + "0001" + "ffff" + "4000" + "0002" + "0064");
        assertThat(numeric("10000"))
                .isEqualTo("0000000a" + "0001" + "0001" + "0000" + "0000" + "0001");
        assertThat(numeric("0.00")).isEqualTo("00000008" + "0000" + "0000" + "0000" + "0002");
        assertThat(numeric("1E+5"))
                .isEqualTo("0000000a" + "0001" + "0001" + "0000" + "0000" + "000a");
        assertThat(numeric("123456789012345678901234567890")) // 12|3456|7890|1234|5678|...
                .isEqualTo(
                        "00000018"
                                + "0008"
                                + "0007"
                                + "0000"
                                + "0000"
                                + "000c"
                                + "0d80"
                                + "1ed2"
                                + "04d2"
                                + "162e"
                                + "2334"
                                + "0d80"
                                + "1ed2");
    }

    @Test
    void theLongPathEncodesAsTheBigIntegerPath() {
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 20_000; i++) {
            int digits = 1 + random.nextInt(19); // up to Long.MAX_VALUE's 19 digits
            long unscaled = (long) (random.nextDouble() * Math.min(Math.pow(10, digits), 9e18));
            if (random.nextInt(5) == 0) {
                unscaled = unscaled / 10_000 * 10_000; // trailing zero groups
            }
            BigDecimal v =
                    BigDecimal.valueOf(
                            random.nextBoolean() ? unscaled : -unscaled, random.nextInt(8));
            CopyBuffer fast = new CopyBuffer(16);
            CopyBuffer big = new CopyBuffer(16);
            PgCopy.numeric(fast, v);
            PgCopy.numericOfBigInteger(big, v);
            assertThat(HexFormat.of().formatHex(fast.bytes(), 0, fast.size()))
                    .as("%s", v)
                    .isEqualTo(HexFormat.of().formatHex(big.bytes(), 0, big.size()));
        }
    }
}
