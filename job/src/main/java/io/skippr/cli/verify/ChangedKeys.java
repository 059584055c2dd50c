package io.skippr.cli.verify;

import io.skippr.sources.postgres.CdcPositions;
import io.skippr.sources.postgres.CdcSettings;
import io.skippr.sources.postgres.PostgresSourceConfig;
import io.skippr.sources.postgres.TableInfo;
import io.skippr.sources.postgres.cdc.SlotPeek;
import io.skippr.sources.postgres.cdc.Slots;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * For a change-data-capture stream, the source keys its slot's transactions changed after the LSN
 * the data sink committed ({@link CdcPositions#highest}, as the source reads it): inserted, updated
 * or deleted since, so not synced yet. Read through a temporary copy of the slot ({@link
 * SlotPeek}), which leaves the pipeline's slot as it was.
 */
final class ChangedKeys {
    /** How many keys one query turns into their canonical form. */
    private static final int BATCH = 500;

    private ChangedKeys() {}

    /**
     * Per stream of {@code tables} whose changed keys are known, those keys in {@link Key#ORDER}; a
     * stream without a committed LSN, or whose changes do not all name their key, is left out (its
     * "not yet synced" column is unknown), with a line on {@code warn} saying why.
     *
     * @param src the source connection, in the read-only transaction the source's rows are read in,
     *     its snapshot already taken: every change it sees is decoded by the peek that follows
     */
    static Map<String, Set<Key>> read(
            PostgresSourceConfig source,
            Connection src,
            List<TableInfo> tables,
            Map<String, String> positions,
            Consumer<String> progress,
            Consumer<String> warn)
            throws SQLException {
        CdcSettings cdc = source.cdc();
        Map<Slots.TableName, Long> after = new HashMap<>();
        Map<Slots.TableName, List<String>> keyColumns = new HashMap<>();
        Map<Slots.TableName, TableInfo> byName = new HashMap<>();
        for (TableInfo table : tables) {
            long lsn = CdcPositions.highest(positions.get(table.stream()), cdc.slot());
            if (lsn > 0 && Tables.unverifiable(table) == null) {
                Slots.TableName name = new Slots.TableName(table.schema(), table.table());
                after.put(name, lsn);
                keyColumns.put(name, table.primaryKey());
                byName.put(name, table);
            }
        }
        if (after.isEmpty()) {
            return Map.of();
        }
        Map<Slots.TableName, SlotPeek.Touched> touched;
        try (Connection peek = source.connection().connect()) {
            touched = SlotPeek.peek(peek, cdc.slot(), cdc.publication(), after, keyColumns);
        } catch (IOException | SQLException e) {
            warn.accept(
                    "cannot read the changes of replication slot "
                            + cdc.slot()
                            + " after the committed position ("
                            + e.getMessage()
                            + "): which rows are not synced yet is unknown, and changes made"
                            + " since the last run count as missing, extra or different");
            return Map.of();
        }
        Map<String, Set<Key>> changed = new HashMap<>();
        for (Map.Entry<Slots.TableName, SlotPeek.Touched> e : touched.entrySet()) {
            TableInfo table = byName.get(e.getKey());
            SlotPeek.Touched t = e.getValue();
            if (t.unknown() != null) {
                warn.accept(
                        table.stream()
                                + ": replication slot "
                                + cdc.slot()
                                + " holds "
                                + t.unknown()
                                + " after the committed position: which rows are not synced yet"
                                + " is unknown");
                continue;
            }
            changed.put(table.stream(), canonical(src, table, t.keys()));
            progress.accept(
                    table.stream()
                            + ": synced up to LSN "
                            + lsn(after.get(e.getKey()))
                            + " of replication slot "
                            + cdc.slot()
                            + " (the committed position); "
                            + t.keys().size()
                            + " keys changed after it are not synced yet");
        }
        return changed;
    }

    /** {@code keys} (each column's PostgreSQL text) as the source side reads them. */
    private static Set<Key> canonical(Connection src, TableInfo table, Set<List<String>> keys)
            throws SQLException {
        Set<Key> found = new TreeSet<>(Key.ORDER);
        List<List<String>> batch = new ArrayList<>();
        for (List<String> key : keys) {
            batch.add(key);
            if (batch.size() == BATCH) {
                found.addAll(canonicalBatch(src, table, batch));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            found.addAll(canonicalBatch(src, table, batch));
        }
        return found;
    }

    private static List<Key> canonicalBatch(
            Connection src, TableInfo table, List<List<String>> keys) throws SQLException {
        List<String> key = table.primaryKey();
        List<String> rows = new ArrayList<>();
        for (List<String> values : keys) {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < key.size(); i++) {
                cells.add(
                        "CAST("
                                + Tables.literal(values.get(i))
                                + " AS "
                                + table.column(key.get(i)).castType()
                                + ")");
            }
            rows.add("(" + String.join(", ", cells) + ")");
        }
        String values =
                "(VALUES "
                        + String.join(", ", rows)
                        + ") AS \"_skippr_changed\"("
                        + key.stream().map(Tables::quote).collect(Collectors.joining(", "))
                        + ")";
        Side side =
                new Side(
                        Reader.jdbc(src),
                        Canonical.Dialect.POSTGRES,
                        values,
                        Tables.sourceKey(table),
                        "NULL");
        return side.firstKeys(keys.size());
    }

    private static String lsn(long lsn) {
        return String.format(Locale.ROOT, "%X/%X", lsn >>> 32, lsn & 0xffffffffL);
    }
}
