package io.skippr.sinks.synapse.fake;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One TDS response message being built: tokens appended little-endian as TDS 7.4 lays them out,
 * then {@link #send} splits the message into packets of the negotiated size (type 0x04, REPLY).
 */
final class TdsOut {
    static final int DONE_FINAL = 0x00;
    static final int DONE_MORE = 0x01;
    static final int DONE_ERROR = 0x02;
    static final int DONE_COUNT = 0x10;

    /** SQL_Latin1_General_CP1_CI_AS: LCID 1033 with its flags, sort id 52. */
    static final byte[] COLLATION = {0x09, 0x04, (byte) 0xD0, 0x00, 0x34};

    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

    TdsOut u8(int v) {
        buf.write(v & 0xFF);
        return this;
    }

    TdsOut u16(int v) {
        buf.write(v & 0xFF);
        buf.write((v >>> 8) & 0xFF);
        return this;
    }

    TdsOut u32(long v) {
        for (int i = 0; i < 4; i++) {
            buf.write((int) (v >>> (8 * i)) & 0xFF);
        }
        return this;
    }

    TdsOut u64(long v) {
        for (int i = 0; i < 8; i++) {
            buf.write((int) (v >>> (8 * i)) & 0xFF);
        }
        return this;
    }

    TdsOut bytes(byte[] b) {
        buf.write(b, 0, b.length);
        return this;
    }

    static byte[] ucs2(String s) {
        return s.getBytes(StandardCharsets.UTF_16LE);
    }

    /** A B_VARCHAR: length in characters as one byte, then UCS-2. */
    TdsOut bVarchar(String s) {
        return u8(s.length()).bytes(ucs2(s));
    }

    /** A US_VARCHAR: length in characters as two bytes, then UCS-2. */
    TdsOut usVarchar(String s) {
        return u16(s.length()).bytes(ucs2(s));
    }

    int size() {
        return buf.size();
    }

    // ---- tokens ----

    TdsOut envChange(int type, String newValue, String oldValue) {
        byte[] n = ucs2(newValue);
        byte[] o = ucs2(oldValue);
        u8(0xE3).u16(1 + 1 + n.length + 1 + o.length).u8(type);
        u8(newValue.length()).bytes(n);
        return u8(oldValue.length()).bytes(o);
    }

    TdsOut collationChange() {
        u8(0xE3).u16(1 + 1 + COLLATION.length + 1).u8(7);
        return u8(COLLATION.length).bytes(COLLATION).u8(0);
    }

    TdsOut loginAck(String program, int major, int minor, int build) {
        byte[] name = ucs2(program);
        u8(0xAD).u16(1 + 4 + 1 + name.length + 4);
        u8(1); // interface: SQL_TSQL
        bytes(new byte[] {0x74, 0x00, 0x00, 0x04}); // TDS 7.4
        u8(program.length()).bytes(name);
        return u8(major).u8(minor).u8(build >>> 8).u8(build);
    }

    TdsOut error(SynapseError e, String server) {
        String message = e.getMessage();
        int length = 4 + 1 + 1 + 2 + message.length() * 2 + 1 + server.length() * 2 + 1 + 4;
        u8(0xAA).u16(length).u32(e.number).u8(e.state).u8(e.severity);
        usVarchar(message).bVarchar(server).bVarchar("");
        return u32(1);
    }

    TdsOut done(int token, int status, int command, long rows) {
        return u8(token).u16(status).u16(command).u64(rows);
    }

    TdsOut done(int status, long rows) {
        return done(0xFD, status, 0, rows);
    }

    TdsOut returnStatus(int value) {
        return u8(0x79).u32(value);
    }

    /** Writes the message as packets of at most {@code packetSize} bytes. */
    void send(OutputStream out, int packetSize) throws IOException {
        byte[] body = buf.toByteArray();
        int room = packetSize - 8;
        int at = 0;
        int id = 1;
        do {
            int n = Math.min(room, body.length - at);
            boolean last = at + n >= body.length;
            int len = n + 8;
            out.write(new byte[] {0x04, (byte) (last ? 1 : 0), (byte) (len >>> 8), (byte) len});
            out.write(new byte[] {0, 0, (byte) id++, 0});
            out.write(body, at, n);
            at += n;
        } while (at < body.length);
        out.flush();
        buf.reset();
    }
}
