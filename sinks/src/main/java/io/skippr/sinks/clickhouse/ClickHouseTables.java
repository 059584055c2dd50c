package io.skippr.sinks.clickhouse;

import static io.skippr.sinks.clickhouse.ClickHouseSql.literal;
import static io.skippr.sinks.clickhouse.ClickHouseSql.quote;

import io.skippr.core.naming.Names;
import io.skippr.core.record.Column;
import io.skippr.core.record.Deadletter;
import io.skippr.core.record.StreamSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates and evolves a stream's table. A table is a ReplacingMergeTree ordered by {@code
 * _skippr_id} with {@code _skippr_synced_at_us} as its version, so copies of a row written again
 * after a failure collapse into the latest one when parts merge (or at once with {@code FINAL}).
 * Several writers may prepare the same table at once: every step tolerates another having done it.
 */
final class ClickHouseTables {
    static final String ID = "_skippr_id";
    static final String SYNCED_AT = "_skippr_synced_at";
    static final String SYNCED_AT_US = "_skippr_synced_at_us";
    static final List<String> METADATA = List.of(ID, SYNCED_AT, SYNCED_AT_US);

    /** Server codes: a column (table) already exists, because another writer just added it. */
    private static final int COLUMN_EXISTS = 44;

    private static final int TABLE_EXISTS = 57;

    private final ClickHouseHttp http;
    private final String database;

    ClickHouseTables(ClickHouseHttp http, String database) {
        this.http = http;
        this.database = database;
    }

    static String tableName(String stream) {
        return Names.snake(stream);
    }

    void createDatabase() throws InterruptedException {
        http.query("CREATE DATABASE IF NOT EXISTS " + quote(database));
    }

    /**
     * Makes the stream's table hold every column of {@code schema}: creates it, adds missing
     * columns, widens integer, float and decimal columns that are too narrow. Returns the table.
     */
    String prepare(StreamSchema schema) throws InterruptedException {
        String table = tableName(schema.stream());
        for (Column c : schema.columns()) {
            if (METADATA.contains(c.name())) {
                throw new ClickHouseException(
                        "Stream "
                                + schema.stream()
                                + " has a column named "
                                + c.name()
                                + ", a name the ClickHouse sink adds itself; rename it at the source");
            }
        }
        Map<String, String> existing = columns(table);
        if (existing.isEmpty()) {
            create(table, schema);
            existing = columns(table);
        }
        for (Column c : schema.columns()) {
            String wanted = ClickHouseTypes.column(c.type());
            String have = existing.get(c.name());
            if (have == null) {
                addColumn(table, c.name(), wanted);
                have = columns(table).get(c.name());
            }
            switch (ClickHouseTypes.fit(have, wanted)) {
                case HOLDS -> {}
                case WIDEN ->
                        http.query(
                                "ALTER TABLE "
                                        + ClickHouseSql.table(database, table)
                                        + " MODIFY COLUMN "
                                        + quote(c.name())
                                        + " "
                                        + wanted);
                case CONFLICT ->
                        throw new ClickHouseException(
                                "Column "
                                        + c.name()
                                        + " of ClickHouse table "
                                        + database
                                        + "."
                                        + table
                                        + " is "
                                        + have
                                        + ", but stream "
                                        + schema.stream()
                                        + " now has it as "
                                        + c.type()
                                        + " ("
                                        + wanted
                                        + "). Change or drop the column in ClickHouse, then restart.");
            }
        }
        return table;
    }

    private void create(String table, StreamSchema schema) throws InterruptedException {
        StringBuilder sql =
                new StringBuilder("CREATE TABLE IF NOT EXISTS ")
                        .append(ClickHouseSql.table(database, table))
                        .append(" (");
        for (Column c : schema.columns()) {
            sql.append(quote(c.name())).append(' ').append(ClickHouseTypes.column(c.type()));
            sql.append(", ");
        }
        sql.append(quote(ID))
                .append(" String, ")
                .append(quote(SYNCED_AT))
                .append(" DateTime('UTC'), ")
                .append(quote(SYNCED_AT_US))
                .append(" UInt64) ENGINE = ReplacingMergeTree(")
                .append(quote(SYNCED_AT_US))
                .append(") ORDER BY ")
                .append(quote(ID));
        try {
            http.query(sql.toString());
        } catch (ClickHouseHttp.ServerError e) {
            if (e.code() != TABLE_EXISTS) {
                throw e;
            }
        }
    }

    private void addColumn(String table, String column, String type) throws InterruptedException {
        // This server has no ADD COLUMN IF NOT EXISTS.
        try {
            http.query(
                    "ALTER TABLE "
                            + ClickHouseSql.table(database, table)
                            + " ADD COLUMN "
                            + quote(column)
                            + " "
                            + type);
        } catch (ClickHouseHttp.ServerError e) {
            if (e.code() != COLUMN_EXISTS) {
                throw e;
            }
        }
    }

    /** How long {@link #deleteDataRun} waits for the server to finish its deletion. */
    static final java.time.Duration DELETE_PATIENCE = java.time.Duration.ofMinutes(2);

    /**
     * Deletes the rows of {@code table} whose {@link Deadletter#DATA_RUN} is {@code dataRun} and
     * waits until they are gone; nothing when the table or the column is missing. The server runs
     * the deletion as a mutation in the background (this one has no {@code mutations_sync}): it
     * applies to the parts that exist when it is created, never to rows inserted after it, and is
     * waited for by polling {@code system.mutations}.
     */
    void deleteDataRun(String table, long dataRun) throws InterruptedException {
        if (!columns(table).containsKey(Deadletter.DATA_RUN)) {
            return;
        }
        http.query(
                "ALTER TABLE "
                        + ClickHouseSql.table(database, table)
                        + " DELETE WHERE "
                        + quote(Deadletter.DATA_RUN)
                        + " = "
                        + dataRun);
        long deadline = System.nanoTime() + DELETE_PATIENCE.toNanos();
        String pending =
                "SELECT count() FROM system.mutations WHERE database = "
                        + literal(database)
                        + " AND table = "
                        + literal(table)
                        + " AND is_done = 0";
        while (!"0".equals(http.query(pending).strip())) {
            if (System.nanoTime() > deadline) {
                throw new ClickHouseException(
                        "ClickHouse has not finished deleting the rows of data run "
                                + dataRun
                                + " from "
                                + database
                                + "."
                                + table
                                + " after "
                                + DELETE_PATIENCE.toSeconds()
                                + " s; see system.mutations, then run again");
            }
            Thread.sleep(100);
        }
    }

    /** The table's columns and their types, in order; empty if there is no such table. */
    Map<String, String> columns(String table) throws InterruptedException {
        String answer =
                http.query(
                        "SELECT name, type FROM system.columns WHERE database = "
                                + literal(database)
                                + " AND table = "
                                + literal(table)
                                + " FORMAT TabSeparated");
        Map<String, String> columns = new LinkedHashMap<>();
        for (String line : answer.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                columns.put(
                        ClickHouseSql.unescapeField(line.substring(0, tab)),
                        ClickHouseSql.unescapeField(line.substring(tab + 1)));
            }
        }
        return columns;
    }
}
