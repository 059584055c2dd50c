package io.skippr.sources.postgres.cdc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys a logical slot's transactions touch after a position, read without moving the slot: the
 * slot is copied to a TEMPORARY slot of this session ({@code pg_copy_logical_replication_slot},
 * which works while the original is in use, and starts at its restart and confirmed flush LSNs),
 * the copy's changes are peeked ({@code pg_logical_slot_peek_binary_changes}, pgoutput protocol 1,
 * decoded by {@link PgOutputDecoder}), and the copy is dropped at the end, also on an error (and by
 * PostgreSQL when the session ends). The original slot's positions are left as they were. Needs the
 * REPLICATION attribute (or superuser), as any use of a slot does.
 *
 * <p>Every transaction the copy decodes is read (whatever its tables), from the slot's restart LSN
 * to the current end of WAL; the touched keys of the asked tables are kept in memory.
 */
public final class SlotPeek {
    private static final String TEMPORARY_PREFIX = "skippr_verify_";

    private SlotPeek() {}

    /**
     * What the peek found of one table.
     *
     * @param keys each touched key's values as text, in the order of the asked key columns: the row
     *     inserted, the row an update left (and the one it came from when the key changed), the row
     *     deleted
     * @param unknown why the keys do not tell every change (a TRUNCATE, a change without its key
     *     values); null when they do
     */
    public record Touched(Set<List<String>> keys, String unknown) {}

    /**
     * The keys of {@code keyColumns}' tables touched by the transactions of {@code slot} that end
     * after each table's LSN in {@code after} (a transaction's end LSN, as committed positions hold
     * it), as publication {@code publication} sends them.
     *
     * @param connection a plain connection in autocommit; left in autocommit
     */
    public static Map<Slots.TableName, Touched> peek(
            Connection connection,
            String slot,
            String publication,
            Map<Slots.TableName, Long> after,
            Map<Slots.TableName, List<String>> keyColumns)
            throws SQLException {
        Slots.checkSlotName(slot);
        String copy = TEMPORARY_PREFIX + backendPid(connection);
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT 1 FROM pg_copy_logical_replication_slot(?, ?, true)")) {
            s.setString(1, slot);
            s.setString(2, copy);
            s.executeQuery().close();
        }
        try {
            connection.setAutoCommit(false); // fetched in batches: the changes can be many
            try {
                return read(connection, copy, publication, after, keyColumns);
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        } finally {
            Slots.dropSlot(connection, copy);
        }
    }

    private static Map<Slots.TableName, Touched> read(
            Connection connection,
            String copy,
            String publication,
            Map<Slots.TableName, Long> after,
            Map<Slots.TableName, List<String>> keyColumns)
            throws SQLException {
        Map<Slots.TableName, Set<List<String>>> keys = new HashMap<>();
        Map<Slots.TableName, String> unknown = new HashMap<>();
        keyColumns.keySet().forEach(t -> keys.put(t, new LinkedHashSet<>()));
        Map<Integer, PgOutputMessage.Relation> relations = new HashMap<>();
        List<Touch> open = new ArrayList<>();
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT data FROM pg_logical_slot_peek_binary_changes(?, NULL, NULL,"
                                + " 'proto_version', '1', 'publication_names', ?)")) {
            s.setString(1, copy);
            s.setString(2, Slots.quoteName(publication));
            s.setFetchSize(1000);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    PgOutputMessage m = PgOutputDecoder.decode(ByteBuffer.wrap(rs.getBytes(1)));
                    if (m instanceof PgOutputMessage.Begin) {
                        open.clear();
                    } else if (m instanceof PgOutputMessage.Relation r) {
                        relations.put(r.oid(), r);
                    } else if (m instanceof PgOutputMessage.Insert i) {
                        touch(open, relations, keyColumns, i.relationOid(), i.newTuple());
                    } else if (m instanceof PgOutputMessage.Update u) {
                        if (u.oldTuple() != null) {
                            touch(open, relations, keyColumns, u.relationOid(), u.oldTuple());
                        }
                        touch(open, relations, keyColumns, u.relationOid(), u.newTuple());
                    } else if (m instanceof PgOutputMessage.Delete d) {
                        touch(open, relations, keyColumns, d.relationOid(), d.oldTuple());
                    } else if (m instanceof PgOutputMessage.Truncate t) {
                        for (int oid : t.relationOids()) {
                            Slots.TableName table = name(relations, oid);
                            if (table != null && keyColumns.containsKey(table)) {
                                open.add(new Touch(table, null, "a TRUNCATE of the table"));
                            }
                        }
                    } else if (m instanceof PgOutputMessage.Commit c) {
                        for (Touch t : open) {
                            if (c.endLsn() > after.getOrDefault(t.table(), Long.MAX_VALUE)) {
                                if (t.key() != null) {
                                    keys.get(t.table()).add(t.key());
                                } else {
                                    unknown.putIfAbsent(t.table(), t.unknown());
                                }
                            }
                        }
                        open.clear();
                    }
                }
            }
        }
        Map<Slots.TableName, Touched> found = new HashMap<>();
        keys.forEach((t, k) -> found.put(t, new Touched(k, unknown.get(t))));
        return found;
    }

    /** A change of an asked table in the open transaction: its key, or why it has none. */
    private record Touch(Slots.TableName table, List<String> key, String unknown) {}

    private static void touch(
            List<Touch> open,
            Map<Integer, PgOutputMessage.Relation> relations,
            Map<Slots.TableName, List<String>> keyColumns,
            int oid,
            PgOutputMessage.Tuple tuple) {
        Slots.TableName table = name(relations, oid);
        List<String> columns = table == null ? null : keyColumns.get(table);
        if (columns == null) {
            return;
        }
        PgOutputMessage.Relation relation = relations.get(oid);
        List<String> key = new ArrayList<>(columns.size());
        for (String column : columns) {
            int at = indexOf(relation, column);
            PgOutputMessage.Cell cell = at < 0 ? null : tuple.cells().get(at);
            if (cell == null || cell.kind() != 't') {
                open.add(
                        new Touch(
                                table, null, "a change without the value of key column " + column));
                return;
            }
            key.add(new String(cell.bytes(), StandardCharsets.UTF_8));
        }
        open.add(new Touch(table, List.copyOf(key), null));
    }

    private static Slots.TableName name(Map<Integer, PgOutputMessage.Relation> relations, int oid) {
        PgOutputMessage.Relation r = relations.get(oid);
        return r == null ? null : new Slots.TableName(r.schema(), r.table());
    }

    private static int indexOf(PgOutputMessage.Relation relation, String column) {
        for (int i = 0; i < relation.columns().size(); i++) {
            if (relation.columns().get(i).name().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    private static int backendPid(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
