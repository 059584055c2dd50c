package io.skippr.sinks.clickhouse;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Values the server's types cannot hold, which it would otherwise store as something else without
 * an error: Date and DateTime before 1970 or after 2105 (they wrap or become zero), decimals with
 * more digits than the column, and the smallest subnormal double (read back as 0).
 */
final class ClickHouseLimits implements RowCheck {
    private static final long serialVersionUID = 1L;

    static final LocalDate MIN_DATE = LocalDate.of(1970, 1, 1);
    static final LocalDate MAX_DATE = LocalDate.of(2105, 12, 31);
    private static final LocalDateTime MIN_TIME = MIN_DATE.atStartOfDay();
    private static final LocalDateTime MAX_TIME = MAX_DATE.plusDays(1).atStartOfDay();

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
                return "column " + column.name() + ": " + problem;
            }
        }
        return null;
    }

    private static String problem(DataType type, Object value) {
        if (value instanceof LocalDate d && (d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE))) {
            return d
                    + " is outside the range of ClickHouse Date ("
                    + MIN_DATE
                    + " to "
                    + MAX_DATE
                    + ")";
        }
        LocalDateTime t =
                value instanceof LocalDateTime local
                        ? local
                        : value instanceof Instant instant
                                ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC)
                                : null;
        if (t != null && (t.isBefore(MIN_TIME) || !t.isBefore(MAX_TIME))) {
            return value
                    + " is outside the range of ClickHouse DateTime (1970-01-01 00:00:00 to"
                    + " 2105-12-31 23:59:59 UTC)";
        }
        if (value instanceof Double d && Math.abs(d) == Double.MIN_VALUE) {
            return d + " is the smallest subnormal double, which ClickHouse reads as 0";
        }
        if (value instanceof BigDecimal d && ClickHouseTypes.storesDecimal(type)) {
            BigDecimal plain = d.stripTrailingZeros();
            int scale = Math.max(plain.scale(), 0);
            int integerDigits = plain.precision() - plain.scale();
            if (scale > type.scale() || integerDigits > type.precision() - type.scale()) {
                return d.toPlainString() + " does not fit ClickHouse " + ClickHouseTypes.of(type);
            }
        }
        return null;
    }
}
