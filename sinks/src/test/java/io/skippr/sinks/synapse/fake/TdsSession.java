package io.skippr.sinks.synapse.fake;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One client connection: TDS 7.4 as {@code mssql-jdbc} speaks it with {@code encrypt=false}.
 * PRELOGIN (answered ENCRYPT_NOT_SUP), LOGIN7 (SQL login checked against the fake's user and
 * password; the database must be the fake's), SQL_BATCH and RPC {@code sp_executesql}, answered
 * with LOGINACK, ENVCHANGE, COLMETADATA, ROW, DONE/DONEINPROC/DONEPROC and ERROR tokens. Every
 * statement runs, translated ({@link Tsql}), on this session's own connection to the backing
 * PostgreSQL; {@code set implicit_transactions on|off} and {@code IF @@TRANCOUNT > 0
 * COMMIT|ROLLBACK TRAN} (what the driver sends for setAutoCommit, commit and rollback) drive its
 * transactions. Any other packet type or RPC is answered with an ERROR token.
 */
final class TdsSession implements Runnable {
    private static final int PRELOGIN = 0x12;
    private static final int LOGIN7 = 0x10;
    private static final int SQL_BATCH = 0x01;
    private static final int RPC = 0x03;
    private static final int ATTENTION = 0x06;
    private static final int SP_EXECUTESQL = 10;

    private static final Pattern COMMAND =
            Pattern.compile(
                    "(?is)^\\s*(set\\s+implicit_transactions\\s+(on|off)"
                            + "|IF\\s+@@TRANCOUNT\\s*>\\s*0\\s+(COMMIT|ROLLBACK)\\s+TRAN)\\s*");

    private final FakeSynapse fake;
    private final Socket socket;
    private DataInputStream in;
    private OutputStream out;
    private int packetSize = 4096;
    private Connection pg;
    private boolean implicitTransactions;
    private int lastPacketType;

    TdsSession(FakeSynapse fake, Socket socket) {
        this.fake = fake;
        this.socket = socket;
    }

    @Override
    public void run() {
        try (socket) {
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
            while (true) {
                byte[] message = readMessage();
                if (message == null) {
                    return;
                }
                handle(lastPacketType, message);
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            if (pg != null) {
                // no statement runs on it now: this thread ran them, one at a time
                fake.release(pg);
            }
        }
    }

    /** One request message, its packets joined; null at the end of the stream. */
    private byte[] readMessage() throws IOException {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        while (true) {
            byte[] header = new byte[8];
            try {
                in.readFully(header);
            } catch (EOFException e) {
                return null;
            }
            lastPacketType = header[0] & 0xFF;
            int length = ((header[2] & 0xFF) << 8) | (header[3] & 0xFF);
            byte[] body = new byte[length - 8];
            in.readFully(body);
            message.write(body);
            if ((header[1] & 0x01) != 0) {
                return message.toByteArray();
            }
        }
    }

    private void handle(int type, byte[] message) throws IOException {
        TdsOut reply = new TdsOut();
        switch (type) {
            case PRELOGIN -> preLogin(reply);
            case LOGIN7 -> {
                if (!login(message, reply)) {
                    reply.send(out, packetSize);
                    socket.close();
                    return;
                }
            }
            case SQL_BATCH -> batch(message, reply);
            case RPC -> rpc(message, reply);
            case ATTENTION -> reply.done(0x20, 0); // DONE_ATTN
            default -> {
                reply.error(
                        SynapseError.unsupported("TDS packet type 0x" + Integer.toHexString(type)),
                        FakeSynapse.SERVER);
                reply.done(TdsOut.DONE_ERROR, 0);
            }
        }
        reply.send(out, packetSize);
    }

    private void preLogin(TdsOut reply) {
        // VERSION (6 bytes) and ENCRYPTION (1 byte: ENCRYPT_NOT_SUP), then the terminator
        int offset = 5 + 5 + 1;
        reply.u8(0x00).u8(offset >>> 8).u8(offset).u8(0).u8(6);
        reply.u8(0x01).u8((offset + 6) >>> 8).u8(offset + 6).u8(0).u8(1);
        reply.u8(0xFF);
        reply.u8(12).u8(0).u8(0x07).u8(0xD0).u8(0).u8(0);
        reply.u8(0x02);
    }

    private boolean login(byte[] m, TdsOut reply) {
        ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        int requested = b.getInt(8);
        String user = text(m, b.getShort(40) & 0xFFFF, b.getShort(42) & 0xFFFF);
        String password = password(m, b.getShort(44) & 0xFFFF, b.getShort(46) & 0xFFFF);
        String database = text(m, b.getShort(68) & 0xFFFF, b.getShort(70) & 0xFFFF);
        if (!fake.user().equals(user) || !fake.password().equals(password)) {
            reply.error(
                    new SynapseError(18456, 1, 14, "Login failed for user '" + user + "'."),
                    FakeSynapse.SERVER);
            reply.done(TdsOut.DONE_ERROR, 0);
            return false;
        }
        if (!database.isEmpty() && !database.equals(FakeSynapse.DATABASE)) {
            reply.error(
                    new SynapseError(
                            4060,
                            1,
                            11,
                            "Cannot open database \""
                                    + database
                                    + "\" requested by the login. The login failed."),
                    FakeSynapse.SERVER);
            reply.done(TdsOut.DONE_ERROR, 0);
            return false;
        }
        try {
            pg = fake.sessionBacking();
        } catch (SQLException e) {
            reply.error(
                    new SynapseError(40613, 1, 17, "backing PostgreSQL: " + e.getMessage()),
                    FakeSynapse.SERVER);
            reply.done(TdsOut.DONE_ERROR, 0);
            return false;
        }
        packetSize = Math.max(512, Math.min(requested, 32767));
        reply.envChange(1, FakeSynapse.DATABASE, "master");
        reply.collationChange();
        reply.envChange(2, "us_english", "");
        reply.loginAck("Microsoft SQL Server", 12, 0, 2000);
        reply.envChange(4, Integer.toString(packetSize), Integer.toString(packetSize));
        reply.done(TdsOut.DONE_FINAL, 0);
        return true;
    }

    private static String text(byte[] m, int offset, int chars) {
        return new String(m, offset, chars * 2, StandardCharsets.UTF_16LE);
    }

    /** LOGIN7 obfuscates the password: each byte's nibbles swapped, then XOR 0xA5. */
    private static String password(byte[] m, int offset, int chars) {
        byte[] p = new byte[chars * 2];
        for (int i = 0; i < p.length; i++) {
            int v = (m[offset + i] & 0xFF) ^ 0xA5;
            p[i] = (byte) (((v & 0x0F) << 4) | (v >>> 4));
        }
        return new String(p, StandardCharsets.UTF_16LE);
    }

    /** Skips ALL_HEADERS: its first DWORD is its total length. */
    private static int afterHeaders(byte[] m) {
        return ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    private void batch(byte[] m, TdsOut reply) {
        int start = afterHeaders(m);
        String sql = new String(m, start, m.length - start, StandardCharsets.UTF_16LE);
        fake.log(sql);
        try {
            String rest = sql;
            while (true) {
                Matcher command = COMMAND.matcher(rest);
                if (!command.find()) {
                    break;
                }
                transaction(command.group(1));
                rest = rest.substring(command.end());
            }
            if (rest.isBlank()) {
                reply.done(TdsOut.DONE_FINAL, 0);
                return;
            }
            execute(rest, List.of(), reply, 0xFD);
        } catch (SynapseError e) {
            reply.error(e, FakeSynapse.SERVER);
            reply.done(TdsOut.DONE_ERROR, 0);
        }
    }

    private void transaction(String command) throws SynapseError {
        String c = command.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        try {
            if (c.startsWith("set implicit_transactions on")) {
                implicitTransactions = true;
                pg.setAutoCommit(false);
            } else if (c.startsWith("set implicit_transactions off")) {
                implicitTransactions = false;
                pg.setAutoCommit(true); // commits what is open, as the driver asks first
            } else if (c.contains("commit")) {
                if (!pg.getAutoCommit()) {
                    pg.commit();
                }
            } else if (!pg.getAutoCommit()) {
                pg.rollback();
            }
        } catch (SQLException e) {
            throw Tsql.error(e);
        }
    }

    private void rpc(byte[] m, TdsOut reply) {
        ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
        b.position(afterHeaders(m));
        try {
            int nameLength = b.getShort() & 0xFFFF;
            if (nameLength != 0xFFFF) {
                byte[] name = new byte[nameLength * 2];
                b.get(name);
                throw SynapseError.unsupported(
                        "the procedure " + new String(name, StandardCharsets.UTF_16LE));
            }
            int proc = b.getShort() & 0xFFFF;
            if (proc != SP_EXECUTESQL) {
                throw SynapseError.unsupported(
                        "RPC procedure id "
                                + proc
                                + " (only sp_executesql, which the driver sends on a prepared"
                                + " statement's first execution)");
            }
            b.getShort(); // option flags
            List<Object[]> params = new ArrayList<>();
            while (b.hasRemaining()) {
                params.add(RpcParams.read(b));
            }
            String sql = (String) params.get(0)[1];
            fake.log(sql);
            // after the statement and its definitions, the values: positional (the driver
            // sends them unnamed, in the order of the definitions) or named @Pn
            List<Object[]> given = params.subList(Math.min(2, params.size()), params.size());
            List<String> wanted = Tsql.parameters(sql);
            List<Object> values = new ArrayList<>();
            for (int k = 0; k < wanted.size(); k++) {
                String name = wanted.get(k);
                Object[] match = null;
                for (Object[] p : given) {
                    if (((String) p[0]).equalsIgnoreCase(name)) {
                        match = p;
                    }
                }
                if (match == null && k < given.size() && ((String) given.get(k)[0]).isEmpty()) {
                    match = given.get(k);
                }
                if (match == null) {
                    throw new SynapseError(
                            8178,
                            "The parameterized query expects the parameter '"
                                    + name
                                    + "', which was not supplied.");
                }
                values.add(match[1]);
            }
            execute(sql, values, reply, 0xFF);
            reply.returnStatus(0);
            reply.done(0xFE, TdsOut.DONE_FINAL, 0xE0, 0);
        } catch (SynapseError e) {
            reply.error(e, FakeSynapse.SERVER);
            reply.done(0xFE, TdsOut.DONE_ERROR, 0xE0, 0);
        } catch (RuntimeException e) {
            reply.error(SynapseError.unsupported("this RPC request: " + e), FakeSynapse.SERVER);
            reply.done(0xFE, TdsOut.DONE_ERROR, 0xE0, 0);
        }
    }

    /**
     * Runs one statement and appends its result: rows (COLMETADATA, ROW…) and a DONE token ({@code
     * doneToken}: DONE in a batch, DONEINPROC in an RPC) that counts them or the rows it changed.
     */
    private void execute(String tsql, List<Object> params, TdsOut reply, int doneToken)
            throws SynapseError {
        Tsql.Translated t = Tsql.translate(tsql, fake.names());
        if (t.copy() != null) {
            long rows = new CopyInto(fake, pg, t.copy()).run();
            reply.done(
                    doneToken,
                    TdsOut.DONE_COUNT | (doneToken == 0xFF ? TdsOut.DONE_MORE : 0),
                    0xC3,
                    rows);
            return;
        }
        if (t.ddl() && implicitTransactions) {
            throw new SynapseError(
                    574, t.verb() + " statement cannot be used inside a user transaction.");
        }
        try (PreparedStatement st = pg.prepareStatement(t.sql())) {
            for (int i = 0; i < params.size(); i++) {
                Object v = params.get(i);
                if (v instanceof String s) {
                    st.setString(i + 1, s);
                } else {
                    st.setObject(i + 1, v);
                }
            }
            int more = doneToken == 0xFF ? TdsOut.DONE_MORE : 0;
            if (st.execute()) {
                try (ResultSet rs = st.getResultSet()) {
                    long n = rows(rs, reply);
                    reply.done(doneToken, TdsOut.DONE_COUNT | more, 0xC1, n);
                }
            } else {
                int count = st.getUpdateCount();
                reply.done(
                        doneToken,
                        (t.counts() ? TdsOut.DONE_COUNT : 0) | more,
                        0xC3,
                        Math.max(0, count));
            }
        } catch (SQLException e) {
            throw Tsql.error(e);
        }
    }

    /** COLMETADATA and a ROW token per row; integers, bits and floats typed, the rest NVARCHAR. */
    private long rows(ResultSet rs, TdsOut reply) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int n = meta.getColumnCount();
        int[] kinds = new int[n];
        reply.u8(0x81).u16(n);
        for (int i = 0; i < n; i++) {
            int type = meta.getColumnType(i + 1);
            reply.u32(0).u16(0x0001 | 0x0008); // nullable, updateable unknown
            switch (type) {
                case Types.SMALLINT -> reply.u8(0x26).u8(2);
                case Types.INTEGER -> reply.u8(0x26).u8(4);
                case Types.BIGINT -> reply.u8(0x26).u8(8);
                case Types.BIT, Types.BOOLEAN -> reply.u8(0x68).u8(1);
                case Types.REAL, Types.DOUBLE, Types.FLOAT -> reply.u8(0x6D).u8(8);
                default -> {
                    type = Types.NVARCHAR;
                    reply.u8(0xE7).u16(0xFFFF).bytes(TdsOut.COLLATION);
                }
            }
            kinds[i] = type;
            reply.bVarchar(fake.original(meta.getColumnLabel(i + 1)));
        }
        long count = 0;
        while (rs.next()) {
            reply.u8(0xD1);
            for (int i = 0; i < n; i++) {
                switch (kinds[i]) {
                    case Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
                        long v = rs.getLong(i + 1);
                        int width =
                                kinds[i] == Types.SMALLINT ? 2 : kinds[i] == Types.INTEGER ? 4 : 8;
                        if (rs.wasNull()) {
                            reply.u8(0);
                        } else {
                            reply.u8(width);
                            for (int k = 0; k < width; k++) {
                                reply.u8((int) (v >>> (8 * k)));
                            }
                        }
                    }
                    case Types.BIT, Types.BOOLEAN -> {
                        boolean v = rs.getBoolean(i + 1);
                        if (rs.wasNull()) {
                            reply.u8(0);
                        } else {
                            reply.u8(1).u8(v ? 1 : 0);
                        }
                    }
                    case Types.REAL, Types.DOUBLE, Types.FLOAT -> {
                        double v = rs.getDouble(i + 1);
                        if (rs.wasNull()) {
                            reply.u8(0);
                        } else {
                            reply.u8(8).u64(Double.doubleToLongBits(v));
                        }
                    }
                    default -> {
                        Object v = rs.getObject(i + 1);
                        if (v == null) {
                            reply.u64(-1L);
                        } else {
                            String s =
                                    v instanceof BigDecimal d
                                            ? d.toPlainString()
                                            : rs.getString(i + 1);
                            byte[] bytes = TdsOut.ucs2(s);
                            reply.u64(bytes.length);
                            if (bytes.length > 0) {
                                reply.u32(bytes.length).bytes(bytes);
                            }
                            reply.u32(0);
                        }
                    }
                }
            }
            count++;
        }
        return count;
    }
}
