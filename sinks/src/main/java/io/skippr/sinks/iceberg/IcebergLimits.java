package io.skippr.sinks.iceberg;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Values an Iceberg column cannot hold as Skippr types it: a decimal with more digits than its
 * column's precision (at most 38) or more decimal places than its scale, and a timestamp beyond
 * 64-bit microseconds (about ±292,000 years). Such a row becomes a load-stage deadletter.
 */
public final class IcebergLimits implements RowCheck {
    private static final long serialVersionUID = 1L;
    private static final Instant MIN = Instant.ofEpochSecond(Long.MIN_VALUE / 1_000_000 + 1);
    private static final Instant MAX = Instant.ofEpochSecond(Long.MAX_VALUE / 1_000_000 - 1);

    @Override
    public String problem(StreamSchema schema, Row row) {
        for (int i = 0; i < schema.size() && i < row.values().length; i++) {
            Object value = row.value(i);
            if (value == null) {
                continue;
            }
            Column column = schema.columns().get(i);
            String problem = problem(column.type(), value);
            if (problem != null) {
                return "column " + column.name() + ": " + value + " " + problem;
            }
        }
        return null;
    }

    private static String problem(DataType type, Object value) {
        if (value instanceof BigDecimal d && type.kind() == DataType.Kind.DECIMAL) {
            Type target = IcebergTypes.of(type);
            if (target instanceof Types.DecimalType decimal) {
                return decimal(d, decimal);
            }
            return null;
        }
        Instant t =
                value instanceof Instant instant
                        ? instant
                        : value instanceof LocalDateTime local
                                ? local.toInstant(ZoneOffset.UTC)
                                : null;
        if (t != null && (t.isBefore(MIN) || t.isAfter(MAX))) {
            return "is outside the range of Iceberg timestamps (microseconds since 1970 in 64"
                    + " bits)";
        }
        return null;
    }

    private static String decimal(BigDecimal d, Types.DecimalType type) {
        BigDecimal scaled;
        try {
            scaled = d.setScale(type.scale(), RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            return "has more than "
                    + type.scale()
                    + " decimal places, the scale of its "
                    + type
                    + " column";
        }
        if (scaled.precision() > type.precision()) {
            return "has more digits than its "
                    + type
                    + " column holds (Iceberg decimals hold at most "
                    + IcebergTypes.MAX_DECIMAL_PRECISION
                    + " digits)";
        }
        return null;
    }
}
