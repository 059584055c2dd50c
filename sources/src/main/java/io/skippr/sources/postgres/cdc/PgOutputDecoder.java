package io.skippr.sources.postgres.cdc;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one {@code pgoutput} message (protocol version 1) from the bytes of a replication stream's
 * XLogData payload. Stateless: the relations the changes refer to are tracked by the caller.
 */
final class PgOutputDecoder {
    private PgOutputDecoder() {}

    /**
     * The message in {@code buffer}'s remaining bytes.
     *
     * @throws IllegalArgumentException for a message type this decoder does not know, or bytes that
     *     end inside a message
     */
    static PgOutputMessage decode(ByteBuffer buffer) {
        ByteBuffer b = buffer.slice();
        try {
            char type = (char) b.get();
            return switch (type) {
                case 'B' ->
                        new PgOutputMessage.Begin(
                                b.getLong(), b.getLong(), b.getInt() & 0xffffffffL);
                case 'C' ->
                        new PgOutputMessage.Commit(b.get(), b.getLong(), b.getLong(), b.getLong());
                case 'O' -> new PgOutputMessage.Origin(b.getLong(), string(b));
                case 'R' -> relation(b);
                case 'Y' -> new PgOutputMessage.Type(b.getInt(), namespace(string(b)), string(b));
                case 'I' -> insert(b);
                case 'U' -> update(b);
                case 'D' -> delete(b);
                case 'T' -> truncate(b);
                case 'M' -> message(b);
                default ->
                        throw new IllegalArgumentException(
                                "unknown pgoutput message type '"
                                        + type
                                        + "' ("
                                        + (int) type
                                        + ")");
            };
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException(
                    "pgoutput message ends early (" + buffer.remaining() + " bytes)", e);
        }
    }

    private static PgOutputMessage.Relation relation(ByteBuffer b) {
        int oid = b.getInt();
        String schema = namespace(string(b));
        String table = string(b);
        char identity = (char) b.get();
        int count = b.getShort() & 0xffff;
        List<PgOutputMessage.Column> columns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean key = (b.get() & 1) != 0;
            columns.add(new PgOutputMessage.Column(key, string(b), b.getInt(), b.getInt()));
        }
        return new PgOutputMessage.Relation(oid, schema, table, identity, List.copyOf(columns));
    }

    private static PgOutputMessage.Insert insert(ByteBuffer b) {
        int oid = b.getInt();
        expect(b, 'N');
        return new PgOutputMessage.Insert(oid, tuple(b));
    }

    private static PgOutputMessage.Update update(ByteBuffer b) {
        int oid = b.getInt();
        char next = (char) b.get();
        PgOutputMessage.Tuple old = null;
        boolean oldIsKey = false;
        if (next == 'K' || next == 'O') {
            oldIsKey = next == 'K';
            old = tuple(b);
            next = (char) b.get();
        }
        if (next != 'N') {
            throw new IllegalArgumentException("update without a new tuple: '" + next + "'");
        }
        return new PgOutputMessage.Update(oid, old, oldIsKey, tuple(b));
    }

    private static PgOutputMessage.Delete delete(ByteBuffer b) {
        int oid = b.getInt();
        char kind = (char) b.get();
        if (kind != 'K' && kind != 'O') {
            throw new IllegalArgumentException("delete without an old tuple: '" + kind + "'");
        }
        return new PgOutputMessage.Delete(oid, tuple(b), kind == 'K');
    }

    private static PgOutputMessage.Truncate truncate(ByteBuffer b) {
        int count = b.getInt();
        int options = b.get();
        List<Integer> oids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            oids.add(b.getInt());
        }
        return new PgOutputMessage.Truncate(options, List.copyOf(oids));
    }

    private static PgOutputMessage.Message message(ByteBuffer b) {
        boolean transactional = (b.get() & 1) != 0;
        long lsn = b.getLong();
        String prefix = string(b);
        byte[] content = new byte[b.getInt()];
        b.get(content);
        return new PgOutputMessage.Message(transactional, lsn, prefix, content);
    }

    private static PgOutputMessage.Tuple tuple(ByteBuffer b) {
        int count = b.getShort() & 0xffff;
        List<PgOutputMessage.Cell> cells = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            char kind = (char) b.get();
            cells.add(
                    switch (kind) {
                        case 'n' -> PgOutputMessage.Cell.NULL;
                        case 'u' -> PgOutputMessage.Cell.UNCHANGED;
                        case 't', 'b' -> {
                            byte[] bytes = new byte[b.getInt()];
                            b.get(bytes);
                            yield new PgOutputMessage.Cell(kind, bytes);
                        }
                        default ->
                                throw new IllegalArgumentException(
                                        "unknown tuple value kind '" + kind + "'");
                    });
        }
        return new PgOutputMessage.Tuple(List.copyOf(cells));
    }

    private static void expect(ByteBuffer b, char expected) {
        char got = (char) b.get();
        if (got != expected) {
            throw new IllegalArgumentException("expected '" + expected + "', got '" + got + "'");
        }
    }

    /** A null-terminated UTF-8 string. */
    private static String string(ByteBuffer b) {
        int start = b.position();
        int end = start;
        while (b.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - start];
        b.get(bytes);
        b.get(); // the terminating zero
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** pgoutput sends an empty namespace for pg_catalog. */
    private static String namespace(String name) {
        return name.isEmpty() ? "pg_catalog" : name;
    }
}
