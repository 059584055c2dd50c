package io.skippr.job.deadletters;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * A deadletter's {@code failed_at} given as text by a driver that has no timestamp type of its own:
 * ISO-8601 with an offset or {@code Z}, with a space for the {@code T}, with a {@code UTC} suffix,
 * without an offset (UTC, as Skippr writes it), or seconds since the epoch.
 */
final class FailedAt {
    private static final DateTimeFormatter OFFSET =
            new DateTimeFormatterBuilder()
                    .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                    .optionalStart()
                    .appendOffset("+HH:MM:ss", "Z")
                    .optionalEnd()
                    .optionalStart()
                    .appendOffset("+HHmm", "Z")
                    .optionalEnd()
                    .optionalStart()
                    .appendOffset("+HH", "Z")
                    .optionalEnd()
                    .parseDefaulting(ChronoField.OFFSET_SECONDS, 0)
                    .toFormatter();

    private FailedAt() {}

    static Instant parse(String text) {
        String t = text.strip();
        if (t.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?")) {
            BigDecimal micros = new BigDecimal(t).movePointRight(6);
            return Instant.EPOCH.plus(micros.longValue(), java.time.temporal.ChronoUnit.MICROS);
        }
        if (t.endsWith(" UTC")) {
            t = t.substring(0, t.length() - 4);
        }
        t = t.replace(' ', 'T');
        try {
            return OffsetDateTime.parse(t, OFFSET).toInstant();
        } catch (DateTimeParseException e) {
            return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
        }
    }
}
