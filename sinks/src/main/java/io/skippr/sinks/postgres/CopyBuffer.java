package io.skippr.sinks.postgres;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable big-endian byte buffer: the PGCOPY rows of one staging table until they are sent. */
final class CopyBuffer {
    private byte[] bytes;
    private int size;

    CopyBuffer(int capacity) {
        bytes = new byte[capacity];
    }

    int size() {
        return size;
    }

    byte[] bytes() {
        return bytes;
    }

    void reset() {
        size = 0;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    void writeByte(int b) {
        ensure(1);
        bytes[size++] = (byte) b;
    }

    void writeShort(int v) {
        ensure(2);
        bytes[size++] = (byte) (v >>> 8);
        bytes[size++] = (byte) v;
    }

    void writeInt(int v) {
        ensure(4);
        bytes[size++] = (byte) (v >>> 24);
        bytes[size++] = (byte) (v >>> 16);
        bytes[size++] = (byte) (v >>> 8);
        bytes[size++] = (byte) v;
    }

    void writeLong(long v) {
        writeInt((int) (v >>> 32));
        writeInt((int) v);
    }

    void write(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, size, b.length);
        size += b.length;
    }

    /** Reserves a 4-byte length, to be filled by {@link #endLength}; returns its offset. */
    int startLength() {
        ensure(4);
        int at = size;
        size += 4;
        return at;
    }

    /** Fills the length reserved at {@code at} with the bytes written since. */
    void endLength(int at) {
        int length = size - at - 4;
        bytes[at] = (byte) (length >>> 24);
        bytes[at + 1] = (byte) (length >>> 16);
        bytes[at + 2] = (byte) (length >>> 8);
        bytes[at + 3] = (byte) length;
    }

    /**
     * Writes {@code s} as UTF-8 (a lone surrogate as '?'). {@code String.getBytes} copies an ASCII
     * string's bytes in one vectorised step; a loop over its chars costs a bounds check per char.
     */
    void writeUtf8(String s) {
        write(s.getBytes(StandardCharsets.UTF_8));
    }
}
