package io.skippr.sinks.files;

import io.skippr.core.record.Column;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Values Parquet cannot hold as Skippr writes them: timestamps are microseconds in 64 bits, so
 * instants beyond about ±292,000 years do not fit.
 */
final class ParquetLimits implements RowCheck {
    private static final long serialVersionUID = 1L;
    private static final Instant MIN = Instant.ofEpochSecond(Long.MIN_VALUE / 1_000_000 + 1);
    private static final Instant MAX = Instant.ofEpochSecond(Long.MAX_VALUE / 1_000_000 - 1);

    @Override
    public String problem(StreamSchema schema, Row row) {
        for (int i = 0; i < schema.size() && i < row.values().length; i++) {
            Object value = row.value(i);
            Instant t =
                    value instanceof Instant instant
                            ? instant
                            : value instanceof LocalDateTime local
                                    ? local.toInstant(ZoneOffset.UTC)
                                    : null;
            if (t != null && (t.isBefore(MIN) || t.isAfter(MAX))) {
                Column column = schema.columns().get(i);
                return "column "
                        + column.name()
                        + ": "
                        + value
                        + " is outside the range of"
                        + " Parquet timestamps (microseconds since 1970 in 64 bits)";
            }
        }
        return null;
    }
}
