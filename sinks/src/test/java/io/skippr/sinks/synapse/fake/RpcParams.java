package io.skippr.sinks.synapse.fake;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads one RPC parameter: its name (B_VARCHAR, empty for sp_executesql's statement and
 * definitions), status, TYPE_INFO and value. Only the types the sink's prepared statements bind:
 * NVARCHAR (short or PLP, from setString), INTN (setInt, setLong), BITN (setBoolean) and FLTN; any
 * other type is refused.
 */
final class RpcParams {
    private RpcParams() {}

    /** {@code {name, value}}; a null value is SQL NULL. */
    static Object[] read(ByteBuffer b) throws SynapseError {
        int nameLength = b.get() & 0xFF;
        byte[] name = new byte[nameLength * 2];
        b.get(name);
        b.get(); // status
        int type = b.get() & 0xFF;
        Object value =
                switch (type) {
                    case 0xE7 -> nvarchar(b);
                    case 0x26 -> intn(b);
                    case 0x68 -> {
                        b.get(); // max length
                        int len = b.get() & 0xFF;
                        yield len == 0 ? null : b.get() != 0;
                    }
                    case 0x6D -> {
                        b.get();
                        int len = b.get() & 0xFF;
                        yield len == 0 ? null : len == 4 ? (double) b.getFloat() : b.getDouble();
                    }
                    default ->
                            throw SynapseError.unsupported(
                                    "RPC parameters of TDS type 0x" + Integer.toHexString(type));
                };
        return new Object[] {new String(name, StandardCharsets.UTF_16LE), value};
    }

    private static Object intn(ByteBuffer b) {
        b.get(); // max length
        int len = b.get() & 0xFF;
        return switch (len) {
            case 0 -> null;
            case 1 -> (long) (b.get() & 0xFF);
            case 2 -> (long) b.getShort();
            case 4 -> (long) b.getInt();
            default -> b.getLong();
        };
    }

    private static String nvarchar(ByteBuffer b) {
        int max = b.getShort() & 0xFFFF;
        b.get(new byte[5]); // collation
        if (max != 0xFFFF) {
            int len = b.getShort() & 0xFFFF;
            if (len == 0xFFFF) {
                return null;
            }
            byte[] data = new byte[len];
            b.get(data);
            return new String(data, StandardCharsets.UTF_16LE);
        }
        long total = b.getLong();
        if (total == -1L) {
            return null;
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        while (true) {
            int chunk = b.getInt();
            if (chunk == 0) {
                break;
            }
            byte[] part = new byte[chunk];
            b.get(part);
            data.write(part, 0, chunk);
        }
        return new String(data.toByteArray(), StandardCharsets.UTF_16LE);
    }
}
