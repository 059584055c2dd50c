package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.postgresql.copy.CopyOut;

/**
 * The rows of a {@code COPY ... TO STDOUT (FORMAT binary)}, one at a time, as they arrive: only the
 * current row (and what PostgreSQL sent with it) is held, however long the split. The format: a
 * header, then per row a field count and per field its length (-1 for NULL) and bytes, then a count
 * of -1.
 */
final class CopyRows implements RowFields, AutoCloseable {
    private static final byte[] SIGNATURE = {
        'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0
    };

    private final CopyOut copy;
    private final int fieldCount;
    private final int[] offsets;
    private final int[] lengths;

    private byte[] buf = new byte[0];
    private int pos;
    private int limit;
    private boolean started;
    private boolean ended;
    private int rowBytes;

    /**
     * @param fieldCount the fields each row holds: the query's select list
     */
    CopyRows(CopyOut copy, int fieldCount) {
        this.copy = copy;
        this.fieldCount = fieldCount;
        this.offsets = new int[fieldCount];
        this.lengths = new int[fieldCount];
    }

    /** Moves to the next row; false at the end of the data, when the COPY has completed. */
    boolean next() throws SQLException {
        if (ended) {
            return false;
        }
        if (!started) {
            header();
            started = true;
        }
        require(2);
        int count = BinaryValues.int16(buf, pos);
        if (count == -1) {
            pos += 2;
            ended = true;
            while (copy.readFromCopy() != null) { // the end of the COPY: its command tag
                continue;
            }
            return false;
        }
        if (count != fieldCount) {
            throw new SQLException(
                    "binary COPY sent a row of " + count + " fields, expected " + fieldCount);
        }
        int rowStart = pos;
        pos += 2;
        for (int i = 0; i < fieldCount; i++) {
            int shift = require(4, rowStart);
            rowStart -= shift;
            shiftOffsets(i, shift);
            int len = BinaryValues.int32(buf, pos);
            pos += 4;
            if (len > 0) {
                shift = require(len, rowStart);
                rowStart -= shift;
                shiftOffsets(i, shift);
            }
            offsets[i] = pos;
            lengths[i] = len;
            pos += Math.max(len, 0);
        }
        rowBytes = pos - rowStart;
        return true;
    }

    /** The bytes of the current row's tuple as PostgreSQL sent it. */
    int rowBytes() {
        return rowBytes;
    }

    private void shiftOffsets(int fields, int shift) {
        for (int j = 0; j < fields; j++) {
            offsets[j] -= shift;
        }
    }

    private void header() throws SQLException {
        require(SIGNATURE.length + 8);
        if (!Arrays.equals(buf, pos, pos + SIGNATURE.length, SIGNATURE, 0, SIGNATURE.length)) {
            throw new SQLException("binary COPY data does not start with PGCOPY's signature");
        }
        pos += SIGNATURE.length + 4; // and the flags: no OIDs since PostgreSQL 12
        int extension = BinaryValues.int32(buf, pos);
        pos += 4;
        require(extension);
        pos += extension;
    }

    private void require(int n) throws SQLException {
        require(n, pos);
    }

    /**
     * Makes {@code n} bytes from {@code pos} available, reading messages as needed and keeping the
     * bytes from {@code keep} on.
     *
     * @return by how much bytes from {@code keep} on moved back in the buffer
     */
    private int require(int n, int keep) throws SQLException {
        if (limit - pos >= n) {
            return 0;
        }
        int shift = 0;
        while (limit - pos < n) {
            byte[] more = copy.readFromCopy();
            if (more == null) {
                throw new SQLException("binary COPY data ended inside a row");
            }
            if (keep == limit) { // nothing to keep: take the message as the buffer
                shift += keep;
                buf = more;
                pos -= keep;
                keep = 0;
                limit = more.length;
                continue;
            }
            int kept = limit - keep;
            byte[] next = buf;
            if (keep > 0 || kept + more.length > buf.length) {
                next = new byte[Math.max(kept + more.length, 2 * kept)];
            }
            System.arraycopy(buf, keep, next, 0, kept);
            System.arraycopy(more, 0, next, kept, more.length);
            buf = next;
            pos -= keep;
            shift += keep;
            keep = 0;
            limit = kept + more.length;
        }
        return shift;
    }

    @Override
    public boolean isNull(int field) {
        return lengths[field] < 0;
    }

    @Override
    public Object value(int field, DataType.Kind kind, boolean jsonb)
            throws PgTypes.Unrepresentable {
        return lengths[field] < 0
                ? null
                : BinaryValues.decode(buf, offsets[field], lengths[field], kind, jsonb);
    }

    @Override
    public String text(int field) {
        return lengths[field] < 0 ? null : BinaryValues.text(buf, offsets[field], lengths[field]);
    }

    /**
     * The one-dimensional {@code text[]} of {@code field}: its elements, null ones as null; null
     * for a NULL array.
     */
    @Override
    public List<String> texts(int field) {
        if (lengths[field] < 0) {
            return null;
        }
        int at = offsets[field];
        int dims = BinaryValues.int32(buf, at);
        if (dims == 0) {
            return List.of();
        }
        int size = BinaryValues.int32(buf, at + 12);
        at += 12 + 8 * dims;
        List<String> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int len = BinaryValues.int32(buf, at);
            at += 4;
            out.add(len < 0 ? null : BinaryValues.text(buf, at, len));
            at += Math.max(len, 0);
        }
        return out;
    }

    /** Stops a COPY not read to its end, so the connection can be used again. */
    @Override
    public void close() throws SQLException {
        if (copy.isActive()) {
            copy.cancelCopy();
        }
    }
}
