package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The text path the binary COPY replaced, kept as the reference {@code BinaryReadTest} compares
 * with: a split query's rows read through pgjdbc's text protocol, each value parsed from
 * PostgreSQL's text exactly as the source did before ({@link #read}, unchanged).
 */
final class TextRow implements RowFields {
    private final ResultSet rs;

    TextRow(ResultSet rs) {
        this.rs = rs;
    }

    @Override
    public boolean isNull(int field) throws SQLException {
        return rs.getString(field + 1) == null;
    }

    @Override
    public Object value(int field, DataType.Kind kind, boolean jsonb)
            throws SQLException, PgTypes.Unrepresentable {
        return read(rs, field + 1, kind);
    }

    @Override
    public String text(int field) throws SQLException {
        return rs.getString(field + 1);
    }

    @Override
    public List<String> texts(int field) throws SQLException {
        Array array = rs.getArray(field + 1);
        return array == null ? null : Arrays.asList((String[]) array.getArray());
    }

    /**
     * Reads column {@code index} (1-based) as the Java class of {@code kind}; null for SQL NULL.
     *
     * @throws Unrepresentable for numeric NaN and infinities, and infinite dates and timestamps
     */
    static Object read(ResultSet rs, int index, DataType.Kind kind)
            throws SQLException, PgTypes.Unrepresentable {
        switch (kind) {
            case BOOLEAN -> {
                boolean v = rs.getBoolean(index);
                return rs.wasNull() ? null : v;
            }
            case INT16 -> {
                short v = rs.getShort(index);
                return rs.wasNull() ? null : v;
            }
            case INT32 -> {
                int v = rs.getInt(index);
                return rs.wasNull() ? null : v;
            }
            case INT64 -> {
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case FLOAT32 -> {
                float v = rs.getFloat(index);
                return rs.wasNull() ? null : v;
            }
            case FLOAT64 -> {
                double v = rs.getDouble(index);
                return rs.wasNull() ? null : v;
            }
            case DECIMAL -> {
                String text = rs.getString(index);
                if (text == null) {
                    return null;
                }
                if (text.equals("NaN") || text.endsWith("Infinity")) {
                    throw new PgTypes.Unrepresentable(
                            "numeric value " + text + " has no DECIMAL representation");
                }
                return new BigDecimal(text);
            }
            case STRING, JSON -> {
                return rs.getString(index);
            }
            case UUID -> {
                String text = rs.getString(index);
                return text == null ? null : UUID.fromString(text);
            }
            case BYTES -> {
                return rs.getBytes(index);
            }
            case DATE -> {
                // one decode: pgjdbc reads infinity as LocalDate.MAX and -infinity as MIN
                LocalDate v = rs.getObject(index, LocalDate.class);
                return v == null
                        ? null
                        : finite(v, v.equals(LocalDate.MAX), v.equals(LocalDate.MIN), "date");
            }
            case TIME -> {
                return rs.getObject(index, LocalTime.class);
            }
            case TIMESTAMP -> {
                LocalDateTime v = rs.getObject(index, LocalDateTime.class);
                return v == null
                        ? null
                        : finite(
                                v,
                                v.equals(LocalDateTime.MAX),
                                v.equals(LocalDateTime.MIN),
                                "timestamp");
            }
            case TIMESTAMP_TZ -> {
                OffsetDateTime v = rs.getObject(index, OffsetDateTime.class);
                return v == null
                        ? null
                        : finite(
                                        v,
                                        v.equals(OffsetDateTime.MAX),
                                        v.equals(OffsetDateTime.MIN),
                                        "timestamptz")
                                .toInstant();
            }
            default -> throw new IllegalStateException("unmapped kind " + kind);
        }
    }

    /**
     * {@code v}, or Unrepresentable when pgjdbc read PostgreSQL's {@code infinity} ({@code
     * positive}) or {@code -infinity} ({@code negative}); no finite PostgreSQL value reaches the
     * Java MAX and MIN it reads them as.
     */
    private static <T> T finite(T v, boolean positive, boolean negative, String type)
            throws PgTypes.Unrepresentable {
        if (positive || negative) {
            throw new PgTypes.Unrepresentable(
                    type
                            + " value "
                            + (positive ? "infinity" : "-infinity")
                            + " has no finite representation");
        }
        return v;
    }
}
