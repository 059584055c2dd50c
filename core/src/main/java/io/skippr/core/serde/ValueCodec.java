package io.skippr.core.serde;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Binary encoding of record values and schemas for Flink's network buffers and state: a tag byte
 * per value, then a fixed or length-prefixed payload. Strings are length-prefixed UTF-8, so they
 * are not limited to 64 KiB as {@code writeUTF} is.
 */
public final class ValueCodec {
    private static final byte NULL = 0;
    private static final byte BOOLEAN = 1;
    private static final byte SHORT = 2;
    private static final byte INT = 3;
    private static final byte LONG = 4;
    private static final byte FLOAT = 5;
    private static final byte DOUBLE = 6;
    private static final byte DECIMAL = 7;
    private static final byte STRING = 8;
    private static final byte UUID_TAG = 9;
    private static final byte BYTES = 10;
    private static final byte DATE = 11;
    private static final byte TIME = 12;
    private static final byte TIMESTAMP = 13;
    private static final byte INSTANT = 14;

    private ValueCodec() {}

    public static void writeValue(Object value, DataOutputView out) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else if (value instanceof Short s) {
            out.writeByte(SHORT);
            out.writeShort(s);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (value instanceof Float f) {
            out.writeByte(FLOAT);
            out.writeFloat(f);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeDouble(d);
        } else if (value instanceof BigDecimal d) {
            out.writeByte(DECIMAL);
            out.writeInt(d.scale());
            writeBytes(d.unscaledValue().toByteArray(), out);
        } else if (value instanceof String s) {
            out.writeByte(STRING);
            writeString(s, out);
        } else if (value instanceof UUID u) {
            out.writeByte(UUID_TAG);
            out.writeLong(u.getMostSignificantBits());
            out.writeLong(u.getLeastSignificantBits());
        } else if (value instanceof byte[] b) {
            out.writeByte(BYTES);
            writeBytes(b, out);
        } else if (value instanceof LocalDate d) {
            out.writeByte(DATE);
            out.writeLong(d.toEpochDay());
        } else if (value instanceof LocalTime t) {
            out.writeByte(TIME);
            out.writeLong(t.toNanoOfDay());
        } else if (value instanceof LocalDateTime t) {
            out.writeByte(TIMESTAMP);
            out.writeLong(t.toEpochSecond(ZoneOffset.UTC));
            out.writeInt(t.getNano());
        } else if (value instanceof Instant t) {
            out.writeByte(INSTANT);
            out.writeLong(t.getEpochSecond());
            out.writeInt(t.getNano());
        } else {
            throw new IOException("no encoding for a value of " + value.getClass().getName());
        }
    }

    public static Object readValue(DataInputView in) throws IOException {
        byte tag = in.readByte();
        return switch (tag) {
            case NULL -> null;
            case BOOLEAN -> in.readBoolean();
            case SHORT -> in.readShort();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> in.readFloat();
            case DOUBLE -> in.readDouble();
            case DECIMAL -> {
                int scale = in.readInt();
                yield new BigDecimal(new BigInteger(readBytes(in)), scale);
            }
            case STRING -> readString(in);
            case UUID_TAG -> new UUID(in.readLong(), in.readLong());
            case BYTES -> readBytes(in);
            case DATE -> LocalDate.ofEpochDay(in.readLong());
            case TIME -> LocalTime.ofNanoOfDay(in.readLong());
            case TIMESTAMP ->
                    LocalDateTime.ofEpochSecond(in.readLong(), in.readInt(), ZoneOffset.UTC);
            case INSTANT -> Instant.ofEpochSecond(in.readLong(), in.readInt());
            default -> throw new IOException("unknown value tag " + tag);
        };
    }

    public static void writeValues(Object[] values, DataOutputView out) throws IOException {
        out.writeInt(values.length);
        for (Object value : values) {
            writeValue(value, out);
        }
    }

    public static Object[] readValues(DataInputView in) throws IOException {
        Object[] values = new Object[in.readInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = readValue(in);
        }
        return values;
    }

    public static void writeString(String s, DataOutputView out) throws IOException {
        writeBytes(s.getBytes(StandardCharsets.UTF_8), out);
    }

    public static String readString(DataInputView in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    public static void writeNullableString(String s, DataOutputView out) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeString(s, out);
        }
    }

    public static String readNullableString(DataInputView in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    private static void writeBytes(byte[] b, DataOutputView out) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputView in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }

    public static void writeSchema(StreamSchema schema, DataOutputView out) throws IOException {
        writeString(schema.stream(), out);
        out.writeInt(schema.columns().size());
        for (Column c : schema.columns()) {
            writeString(c.name(), out);
            out.writeByte(c.type().kind().ordinal());
            out.writeInt(c.type().precision());
            out.writeInt(c.type().scale());
            out.writeBoolean(c.nullable());
        }
        out.writeInt(schema.primaryKey().size());
        for (String key : schema.primaryKey()) {
            writeString(key, out);
        }
        writeNullableString(schema.cursorColumn(), out);
    }

    public static StreamSchema readSchema(DataInputView in) throws IOException {
        String stream = readString(in);
        int n = in.readInt();
        List<Column> columns = new ArrayList<>(n);
        DataType.Kind[] kinds = DataType.Kind.values();
        for (int i = 0; i < n; i++) {
            String name = readString(in);
            int kind = in.readByte();
            if (kind < 0 || kind >= kinds.length) {
                throw new IOException("unknown data type " + kind);
            }
            DataType type = new DataType(kinds[kind], in.readInt(), in.readInt());
            columns.add(new Column(name, type, in.readBoolean()));
        }
        int k = in.readInt();
        List<String> key = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            key.add(readString(in));
        }
        return new StreamSchema(stream, columns, key, readNullableString(in));
    }
}
