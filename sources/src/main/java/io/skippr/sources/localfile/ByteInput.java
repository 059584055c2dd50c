package io.skippr.sources.localfile;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Buffered byte input of a file that knows the file offset of the next byte, so a reader can
 * checkpoint exactly where a record ends and seek back there on restore.
 */
final class ByteInput implements Closeable {
    private static final int BUFFER = 64 * 1024;

    private final InputStream in;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int limit;
    private long offset;

    /** The offset reading ends at, as if the file ended there; -1 for the file's end. */
    private final long end;

    private ByteInput(InputStream in, long offset, long end) {
        this.in = in;
        this.offset = offset;
        this.end = end;
    }

    /** Opens {@code file} positioned at byte {@code offset}. */
    static ByteInput open(Path file, long offset) throws IOException {
        return open(file, offset, -1);
    }

    /**
     * Opens {@code file} positioned at byte {@code offset}, ending at byte {@code end} (-1: at the
     * file's end).
     */
    static ByteInput open(Path file, long offset, long end) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            channel.position(offset);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return new ByteInput(Channels.newInputStream(channel), offset, end);
    }

    /** The file offset of the next byte {@link #read()} returns. */
    long offset() {
        return offset;
    }

    /** The next byte (0-255), or -1 at the end of the file. */
    int read() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        offset++;
        return buf[pos++] & 0xff;
    }

    /** The next byte without consuming it, or -1 at the end of the file. */
    int peek() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        return buf[pos] & 0xff;
    }

    /** Skips a UTF-8 byte order mark if the input starts with one. */
    void skipBom() throws IOException {
        while (limit - pos < 3) {
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                limit -= pos;
                pos = 0;
            }
            int want = buf.length - limit;
            if (end >= 0) { // the stream stands at offset + the bytes buffered
                want = (int) Math.min(want, end - offset - (limit - pos));
            }
            int n = want <= 0 ? -1 : in.read(buf, limit, want);
            if (n < 0) {
                break;
            }
            limit += n;
        }
        if (limit - pos >= 3
                && (buf[pos] & 0xff) == 0xEF
                && (buf[pos + 1] & 0xff) == 0xBB
                && (buf[pos + 2] & 0xff) == 0xBF) {
            pos += 3;
            offset += 3;
        }
    }

    private boolean fill() throws IOException {
        int want = buf.length;
        if (end >= 0) {
            long left = end - offset;
            if (left <= 0) {
                return false;
            }
            want = (int) Math.min(want, left);
        }
        int n;
        do {
            n = in.read(buf, 0, want);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
