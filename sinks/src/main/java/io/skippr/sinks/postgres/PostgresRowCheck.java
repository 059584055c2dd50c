package io.skippr.sinks.postgres;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The values PostgreSQL cannot store, found before the writer sees them (a bad value in a COPY
 * would fail the whole batch): text or JSON holding the NUL character, JSON that is not valid or
 * that jsonb rejects ({@code \u0000} escapes), a decimal too large for its numeric column, dates
 * and timestamps outside PostgreSQL's range.
 */
final class PostgresRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;
    private static final JsonFactory JSON = new JsonFactory();

    /** PostgreSQL's date range: 4713 BC to 5874897 AD; timestamps end in 294276 AD. */
    static final LocalDate MIN_DATE = LocalDate.of(-4713, 11, 24);

    static final LocalDate MAX_DATE = LocalDate.of(5_874_897, 12, 31);
    static final LocalDateTime MIN_TIMESTAMP = MIN_DATE.atStartOfDay();
    static final LocalDateTime MAX_TIMESTAMP = LocalDateTime.of(294_277, 1, 1, 0, 0);
    private static final long MIN_TIMESTAMP_SECOND = MIN_TIMESTAMP.toEpochSecond(ZoneOffset.UTC);
    private static final long MAX_TIMESTAMP_SECOND = MAX_TIMESTAMP.toEpochSecond(ZoneOffset.UTC);

    /** numeric's limits: digits before and after the point. */
    static final int MAX_INTEGER_DIGITS = 131_072;

    static final int MAX_SCALE = 16_383;

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, PostgresRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        switch (type.kind()) {
            case STRING -> {
                return ((String) v).indexOf('\u0000') >= 0
                        ? "PostgreSQL text cannot hold the NUL character (U+0000)"
                        : null;
            }
            case JSON -> {
                return json((String) v);
            }
            case DECIMAL -> {
                return decimal(type, (BigDecimal) v);
            }
            case DATE -> {
                LocalDate d = (LocalDate) v;
                return d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE)
                        ? "date " + d + " is outside PostgreSQL's range (4713 BC to 5874897 AD)"
                        : null;
            }
            case TIMESTAMP -> {
                return timestamp((LocalDateTime) v);
            }
            case TIMESTAMP_TZ -> {
                long second = ((Instant) v).getEpochSecond();
                if (second >= MIN_TIMESTAMP_SECOND && second < MAX_TIMESTAMP_SECOND) {
                    return null;
                }
                return timestamp(LocalDateTime.ofEpochSecond(second, 0, ZoneOffset.UTC));
            }
            default -> {
                return null;
            }
        }
    }

    private static String timestamp(LocalDateTime t) {
        return t.isBefore(MIN_TIMESTAMP) || !t.isBefore(MAX_TIMESTAMP)
                ? "timestamp " + t + " is outside PostgreSQL's range (4713 BC to 294276 AD)"
                : null;
    }

    private static String decimal(DataType type, BigDecimal v) {
        int p = type.precision();
        int s = type.scale();
        if (p > 0
                && p <= PostgresDialect.MAX_NUMERIC_PRECISION
                && s >= 0
                && s <= p
                && v.scale() >= 0
                && v.scale() <= s
                && v.precision() - v.scale() <= p - s) {
            return null; // fits numeric(p,s) as it is: the common case, without rounding
        }
        String column = PostgresDialect.numeric(type.precision(), type.scale());
        if (column.equals("numeric")) {
            int scale = Math.max(v.scale(), 0);
            int integerDigits = v.precision() - v.scale();
            if (scale > MAX_SCALE || integerDigits > MAX_INTEGER_DIGITS) {
                return "the value has more digits than PostgreSQL's numeric holds";
            }
            return null;
        }
        BigDecimal rounded = v.setScale(type.scale(), RoundingMode.HALF_UP);
        if (rounded.precision() - rounded.scale() > type.precision() - type.scale()
                && rounded.signum() != 0) {
            return "the value "
                    + v.toPlainString()
                    + " does not fit "
                    + column
                    + " (at most "
                    + (type.precision() - type.scale())
                    + " digits before the point)";
        }
        return null;
    }

    private static String json(String text) {
        if (text.indexOf('\u0000') >= 0) {
            return "PostgreSQL jsonb cannot hold the NUL character (U+0000)";
        }
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() == null) {
                return "empty text is not JSON";
            }
            int depth = 0;
            JsonToken t = p.currentToken();
            while (true) {
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    depth--;
                } else if ((t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME)
                        && p.getText().indexOf('\u0000') >= 0) {
                    return "PostgreSQL jsonb cannot hold \\u0000 in a string";
                }
                if (depth == 0) {
                    break;
                }
                t = p.nextToken();
            }
            return p.nextToken() == null ? null : "text after the JSON value";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "not valid JSON: " + e.getOriginalMessage();
        } catch (IOException e) {
            return "not valid JSON: " + e.getMessage();
        }
    }
}
