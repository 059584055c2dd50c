package io.skippr.sinks.postgres;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * PostgreSQL's binary COPY format (PGCOPY), written by hand for every Skippr type: a row is a field
 * count, then per field a length (-1 for NULL) and the value in the type's binary send format. Rows
 * of a staging table end with {@code _skippr_id}, {@code _skippr_synced_at}, {@code
 * _skippr_deleted} and {@code _skippr_seq}; rows of a target table with the first two.
 */
final class PgCopy {
    /** Signature, flags (no OIDs), header extension length 0. */
    static final byte[] HEADER = {
        'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0
    };

    static final byte[] TRAILER = {(byte) 0xFF, (byte) 0xFF};

    /** 2000-01-01, PostgreSQL's date and timestamp epoch, in days and microseconds since 1970. */
    static final long EPOCH_DAY = 10_957;

    static final long EPOCH_MICROS = 946_684_800_000_000L;

    private static final int NUMERIC_NEG = 0x4000;
    private static final long[] POW10 = {1, 10, 100, 1000};
    private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

    private final DataType.Kind[] kinds;
    private final boolean staging;

    /** Rows of a staging table. */
    PgCopy(StreamSchema schema) {
        this(schema, true);
    }

    /**
     * @param staging true for rows of a staging table; false for rows of a target table, which end
     *     with {@code _skippr_id} and {@code _skippr_synced_at}
     */
    PgCopy(StreamSchema schema, boolean staging) {
        kinds =
                schema.columns().stream()
                        .map(Column::type)
                        .map(DataType::kind)
                        .toArray(DataType.Kind[]::new);
        this.staging = staging;
    }

    void row(CopyBuffer buf, Row row, long seq) {
        buf.writeShort(kinds.length + (staging ? 4 : 2));
        Object[] values = row.values();
        for (int i = 0; i < kinds.length; i++) {
            Object v = i < values.length ? values[i] : null;
            if (v == null) {
                buf.writeInt(-1);
            } else {
                value(buf, kinds[i], v);
            }
        }
        if (row.id() == null) {
            buf.writeInt(-1);
        } else {
            text(buf, row.id());
        }
        if (row.syncedAtMicros() == 0) {
            buf.writeInt(-1);
        } else {
            buf.writeInt(8);
            buf.writeLong(row.syncedAtMicros() - EPOCH_MICROS);
        }
        if (!staging) {
            return;
        }
        buf.writeInt(1);
        buf.writeByte(row.op() == Operation.DELETE ? 1 : 0);
        buf.writeInt(8);
        buf.writeLong(seq);
    }

    static void value(CopyBuffer buf, DataType.Kind kind, Object v) {
        switch (kind) {
            case BOOLEAN -> {
                buf.writeInt(1);
                buf.writeByte(((Boolean) v) ? 1 : 0);
            }
            case INT16 -> {
                buf.writeInt(2);
                buf.writeShort(((Number) v).shortValue());
            }
            case INT32 -> {
                buf.writeInt(4);
                buf.writeInt(((Number) v).intValue());
            }
            case INT64 -> {
                buf.writeInt(8);
                buf.writeLong(((Number) v).longValue());
            }
            case FLOAT32 -> {
                buf.writeInt(4);
                buf.writeInt(Float.floatToIntBits(((Number) v).floatValue()));
            }
            case FLOAT64 -> {
                buf.writeInt(8);
                buf.writeLong(Double.doubleToLongBits(((Number) v).doubleValue()));
            }
            case DECIMAL -> numeric(buf, (BigDecimal) v);
            case STRING -> text(buf, (String) v);
            case JSON -> {
                int at = buf.startLength();
                buf.writeByte(1); // jsonb binary format version
                buf.writeUtf8((String) v);
                buf.endLength(at);
            }
            case UUID -> {
                UUID u = (UUID) v;
                buf.writeInt(16);
                buf.writeLong(u.getMostSignificantBits());
                buf.writeLong(u.getLeastSignificantBits());
            }
            case BYTES -> {
                byte[] b = (byte[]) v;
                buf.writeInt(b.length);
                buf.write(b);
            }
            case DATE -> {
                buf.writeInt(4);
                buf.writeInt((int) (((LocalDate) v).toEpochDay() - EPOCH_DAY));
            }
            case TIME -> {
                buf.writeInt(8);
                buf.writeLong(((LocalTime) v).toNanoOfDay() / 1000);
            }
            case TIMESTAMP -> {
                LocalDateTime t = (LocalDateTime) v;
                buf.writeInt(8);
                buf.writeLong(micros(t.toEpochSecond(ZoneOffset.UTC), t.getNano()));
            }
            case TIMESTAMP_TZ -> {
                Instant t = (Instant) v;
                buf.writeInt(8);
                buf.writeLong(micros(t.getEpochSecond(), t.getNano()));
            }
        }
    }

    /** Microseconds since 2000-01-01; digits below a microsecond are dropped. */
    static long micros(long epochSecond, int nano) {
        return epochSecond * 1_000_000L + nano / 1000 - EPOCH_MICROS;
    }

    static void text(CopyBuffer buf, String s) {
        int at = buf.startLength();
        buf.writeUtf8(s);
        buf.endLength(at);
    }

    /**
     * numeric's send format: digit count, weight (of the first digit, in powers of 10000), sign,
     * display scale, then base-10000 digits, most significant first, without leading or trailing
     * zero digits.
     */
    static void numeric(CopyBuffer buf, BigDecimal value) {
        BigDecimal v = value.scale() < 0 ? value.setScale(0) : value;
        int dscale = v.scale();
        int pad = (4 - dscale % 4) % 4; // fraction digits to a multiple of 4
        BigInteger unscaled = v.unscaledValue();
        if (unscaled.bitLength() + 4 * pad <= 62) {
            // fits a long even after padding (10^pad < 2^(4 pad)): no BigInteger arithmetic, no
            // arrays, and no precision() (a digit count per value)
            long u = unscaled.longValue();
            numeric(buf, Math.abs(u) * POW10[pad], u < 0, dscale, pad);
        } else {
            numericOfBigInteger(buf, v);
        }
    }

    /** {@link #numeric} through BigInteger arithmetic, for any value with a scale of 0 or more. */
    static void numericOfBigInteger(CopyBuffer buf, BigDecimal v) {
        int dscale = v.scale();
        int pad = (4 - dscale % 4) % 4;
        BigInteger unscaled = v.unscaledValue();
        int sign = unscaled.signum() < 0 ? NUMERIC_NEG : 0;
        unscaled = unscaled.abs();
        if (pad > 0) {
            unscaled = unscaled.multiply(BigInteger.TEN.pow(pad));
        }
        short[] groups = groups(unscaled); // least significant first
        int fractionGroups = (dscale + pad) / 4;
        int n = groups.length;
        int weight = n - fractionGroups - 1;
        int low = 0;
        while (low < n && groups[low] == 0) {
            low++;
        }
        int ndigits = n - low;
        if (ndigits == 0) {
            weight = 0;
            sign = 0;
        }
        buf.writeInt(8 + 2 * ndigits);
        buf.writeShort(ndigits);
        buf.writeShort(weight);
        buf.writeShort(sign);
        buf.writeShort(dscale);
        for (int i = n - 1; i >= low; i--) {
            buf.writeShort(groups[i]);
        }
    }

    /**
     * The send format of {@code padded} (the absolute unscaled value times 10^{@code pad}, below
     * 2^62) with display scale {@code dscale}: at most 5 base-10000 digits.
     */
    private static void numeric(
            CopyBuffer buf, long padded, boolean negative, int dscale, int pad) {
        int fractionGroups = (dscale + pad) / 4;
        int n = 0; // base-10000 digits of padded
        int zeros = 0; // of which trailing zero digits, left out
        for (long rest = padded; rest != 0 && rest % 10_000 == 0; rest /= 10_000) {
            zeros++;
        }
        for (long r = padded; r != 0; r /= 10_000) {
            n++;
        }
        int ndigits = n - zeros;
        buf.writeInt(8 + 2 * ndigits);
        buf.writeShort(ndigits);
        buf.writeShort(ndigits == 0 ? 0 : n - fractionGroups - 1);
        buf.writeShort(ndigits == 0 || !negative ? 0 : NUMERIC_NEG);
        buf.writeShort(dscale);
        long divisor = 1;
        for (int i = 1; i < n; i++) {
            divisor *= 10_000;
        }
        for (int i = 0; i < ndigits; i++) {
            buf.writeShort((int) (padded / divisor % 10_000));
            divisor /= 10_000;
        }
    }

    private static short[] groups(long u) {
        short[] tmp = new short[5];
        int n = 0;
        while (u != 0) {
            tmp[n++] = (short) (u % 10_000);
            u /= 10_000;
        }
        return n == 5 ? tmp : java.util.Arrays.copyOf(tmp, n);
    }

    private static short[] groups(BigInteger unscaled) {
        if (unscaled.bitLength() < 63) {
            return groups(unscaled.longValue());
        }
        java.util.List<Short> out = new java.util.ArrayList<>();
        BigInteger u = unscaled;
        while (u.signum() != 0) {
            BigInteger[] qr = u.divideAndRemainder(TEN_THOUSAND);
            out.add(qr[1].shortValue());
            u = qr[0];
        }
        short[] groups = new short[out.size()];
        for (int i = 0; i < groups.length; i++) {
            groups[i] = out.get(i);
        }
        return groups;
    }
}
