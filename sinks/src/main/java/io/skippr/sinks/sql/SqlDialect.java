package io.skippr.sinks.sql;

import io.skippr.core.record.DataType;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What differs between SQL warehouses: quoting, column types, DDL, catalog queries, the upsert and
 * the table swap. The commit protocol ({@link CommitTransaction}) is written once against this.
 */
public interface SqlDialect extends Serializable {

    /** A quoted identifier, safe for any name the database allows. */
    /**
     * The condition under which a merge lets the staged row {@code row} replace the target row
     * {@code t}: unless the target row is newer by the (quoted) cursor column. Writer subtasks
     * commit independently, so an older version of a row can arrive after a newer one. A row
     * without a cursor value cannot be ordered and always applies; equal values apply too, so the
     * cursor column must grow with every change of a row (docs/connectors/postgres.md).
     */
    default String notOlder(String row, String cursor) {
        return "("
                + row
                + "."
                + cursor
                + " IS NULL OR t."
                + cursor
                + " IS NULL OR "
                + row
                + "."
                + cursor
                + " >= t."
                + cursor
                + ")";
    }

    default String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    default String qualified(String schema, String table) {
        return quote(schema) + "." + quote(table);
    }

    /** The longest identifier, in UTF-8 bytes. */
    int maxIdentifierBytes();

    default SqlNames names() {
        return new SqlNames(maxIdentifierBytes());
    }

    /** The column type a value of {@code type} is stored as. */
    String columnType(DataType type);

    /** The column types of {@link SqlNames#ID}, {@link SqlNames#SYNCED_AT} and staging columns. */
    default String idType() {
        return columnType(DataType.STRING);
    }

    default String syncedAtType() {
        return columnType(DataType.TIMESTAMP_TZ);
    }

    // ---- catalog ----

    boolean schemaExists(Connection c, String schema) throws SQLException;

    default String createSchema(String schema) {
        return "CREATE SCHEMA " + quote(schema);
    }

    /**
     * The table's columns and their types as the catalog prints them; null if it does not exist.
     */
    LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException;

    /** Whether a primary key or unique index covers exactly {@code key}. */
    boolean hasUniqueKey(Connection c, String schema, String table, List<String> key)
            throws SQLException;

    /**
     * Whether the table has rules Skippr did not create, by which it may refuse a row Skippr's load
     * check passed: CHECK, foreign key, unique or exclusion constraints, NOT NULL on a column
     * outside the primary key, triggers. Such a table's rows are probed before they load ({@link
     * SqlLoadProbe}).
     */
    default boolean hasOwnRules(Connection c, String schema, String table) throws SQLException {
        return false;
    }

    /**
     * The value {@code _skippr_loads.committed_at} gets as SQL, or null for the column's default
     * (the database's time of the commit's transaction). DuckDB's default is the start of the
     * transaction, which a bounded run's commit shares with its writers' loads, so it gives this
     * machine's time now.
     */
    default String commitTime() {
        return null;
    }

    /**
     * Whether DDL runs inside a transaction. Snowflake's does not: a DDL statement commits the open
     * transaction first and then commits itself, so a commit makes its DDL (schema, marker table,
     * staging and target tables, new columns) before its transaction begins, and drops staging
     * tables after it ended ({@link CommitTransaction}).
     */
    default boolean transactionalDdl() {
        return true;
    }

    /**
     * The statement that drops {@code qualified} if it exists: {@code DROP TABLE IF EXISTS} unless
     * a database lacks it (Synapse).
     */
    default String dropTable(String qualified) {
        return "DROP TABLE IF EXISTS " + qualified;
    }

    /** Whether a transaction can roll back to a savepoint after an error. */
    default boolean savepoints() {
        return true;
    }

    /** The staging tables in {@code schema}: name and comment. */
    List<StagingInfo> stagingTables(Connection c, String schema) throws SQLException;

    /** A staging table as the catalog shows it. */
    record StagingInfo(String name, String comment) {}

    /**
     * Serialises DDL on one table between concurrent commits (PostgreSQL: a transaction-scoped
     * advisory lock); held until the transaction ends.
     */
    void lockForDdl(Connection c, String schema, String table) throws SQLException;

    // ---- schema evolution ----

    /**
     * The schema evolution policy: whether a column of type {@code existing} (as {@link #columns}
     * prints it) takes values of {@code wanted} as is, is widened, or refuses them.
     */
    TypeChange change(String existing, DataType wanted);

    default String createTable(
            String qualified, List<String> columns, List<String> types, List<String> key) {
        StringBuilder sql = new StringBuilder("CREATE TABLE ").append(qualified).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append(quote(columns.get(i)))
                    .append(' ')
                    .append(types.get(i));
        }
        if (!key.isEmpty()) {
            sql.append(", PRIMARY KEY (").append(quoteAll(key)).append(')');
        }
        return sql.append(')').toString();
    }

    default String addColumn(String qualified, String column, String type) {
        return "ALTER TABLE " + qualified + " ADD COLUMN " + quote(column) + " " + type;
    }

    String alterColumnType(String qualified, String column, String type);

    default String addPrimaryKey(String qualified, List<String> key) {
        return "ALTER TABLE " + qualified + " ADD PRIMARY KEY (" + quoteAll(key) + ")";
    }

    default String commentOnTable(String qualified, String comment) {
        return "COMMENT ON TABLE " + qualified + " IS " + literal(comment);
    }

    /** A string literal. */
    default String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    default String quoteAll(List<String> names) {
        return names.stream().map(this::quote).collect(Collectors.joining(", "));
    }

    // ---- moving rows ----

    /**
     * An append for a destination whose commit is a sequence of statements rather than one
     * transaction (Databricks, BigQuery): one {@code MERGE} that inserts only the staged rows whose
     * {@code _skippr_id} is not in the target yet. A commit stopped after it and before its marker
     * row inserts nothing the second time, whether the commit is repeated or its run ended there
     * and the next run reads the same rows again from the last marker's positions ({@code
     * _skippr_id} comes from the stream and the source position, so it is the same; {@code
     * _skippr_synced_at} is new, which is why it is not part of the match).
     */
    default String appendNewIds(String target, List<String> columns, String select) {
        String id = quote(SqlNames.ID);
        return "MERGE INTO "
                + target
                + " t USING ("
                + select
                + ") s ON t."
                + id
                + " = s."
                + id
                + " WHEN NOT MATCHED THEN INSERT ("
                + String.join(", ", columns)
                + ") VALUES ("
                + columns.stream().map(c -> "s." + c).collect(Collectors.joining(", "))
                + ")";
    }

    /**
     * One {@code MERGE INTO} for dialects with SQL's MERGE (Databricks, BigQuery): the winning row
     * of each key (the last by {@code orderBy}) deletes the key's row, updates it (unless older by
     * the cursor) or is inserted. Applying the same winners twice leaves the same table, so a
     * repeated commit converges.
     */
    default String mergeWinners(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        String rank = quote("_skippr_rank_in_key");
        String order =
                orderBy.stream()
                        .map(o -> o + " DESC NULLS LAST")
                        .collect(java.util.stream.Collectors.joining(", "));
        List<String> all = new java.util.ArrayList<>(columns);
        all.add(SqlNames.ID);
        all.add(SqlNames.SYNCED_AT);
        String match =
                key.stream()
                        .map(k -> "t." + quote(k) + " = s." + quote(k))
                        .collect(java.util.stream.Collectors.joining(" AND "));
        String guard = cursor == null ? "" : " AND " + notOlder("s", cursor);
        String deleted = "s." + quote(SqlNames.DELETE_ROW);
        return "MERGE INTO "
                + target
                + " t USING (SELECT * FROM (SELECT l.*, ROW_NUMBER() OVER (PARTITION BY "
                + key.stream()
                        .map(k -> "l." + quote(k))
                        .collect(java.util.stream.Collectors.joining(", "))
                + " ORDER BY "
                + order
                + ") AS "
                + rank
                + " FROM ("
                + staged
                + ") l) r WHERE "
                + rank
                + " = 1) s ON "
                + match
                + " WHEN MATCHED AND "
                + deleted
                + guard
                + " THEN DELETE WHEN MATCHED AND NOT "
                + deleted
                + guard
                + " THEN UPDATE SET "
                + all.stream()
                        .filter(c -> !key.contains(c))
                        .map(c -> quote(c) + " = s." + quote(c))
                        .collect(java.util.stream.Collectors.joining(", "))
                + " WHEN NOT MATCHED AND NOT "
                + deleted
                + " THEN INSERT ("
                + quoteAll(all)
                + ") VALUES ("
                + all.stream()
                        .map(c -> "s." + quote(c))
                        .collect(java.util.stream.Collectors.joining(", "))
                + ")";
    }

    /**
     * One statement that applies {@code staged} to {@code target}: per key the last row (by {@code
     * orderBy}, descending) wins; a winning row with {@link SqlNames#DELETE_ROW} deletes the key,
     * any other is inserted or updates the row with that key.
     *
     * @param staged a query with {@code columns}, {@link SqlNames#ID}, {@link SqlNames#SYNCED_AT},
     *     {@link SqlNames#DELETE_ROW} and the columns {@code orderBy} names
     * @param orderBy expressions ordering the rows of a key, most significant first; the row that
     *     sorts last wins (NULL sorts first)
     * @param cursor the quoted cursor column, or null: a winning row whose cursor is below the
     *     target row's (a NULL cursor is below any value) leaves the target row as it is, so
     *     commits that arrive out of order (writer subtasks commit independently, and a window of
     *     newer rows may be read by another subtask) never put back an older version of a row
     */
    String merge(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor);

    /**
     * The statement that appends the rows of {@code select} (whose columns are named as the quoted
     * {@code columns}) to {@code target}: {@code INSERT … SELECT}. A database whose statements each
     * commit alone (Databricks) returns one that a repeat leaves as it is.
     */
    default String append(String target, List<String> columns, String select) {
        return "INSERT INTO " + target + " (" + String.join(", ", columns) + ") " + select;
    }

    /**
     * {@link #merge} as the statements to run in order; one unless a database has no single
     * statement for it (Redshift: delete and insert).
     */
    default List<String> mergeStatements(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        return List.of(merge(target, staged, key, columns, orderBy, cursor));
    }

    /**
     * A statement that removes every row of {@code qualified} inside the commit's transaction
     * (Redshift's TRUNCATE commits the transaction it runs in).
     */
    default String emptyTable(String qualified) {
        return "TRUNCATE " + qualified;
    }

    /**
     * Run first in every commit's transaction, after the marker table exists: Redshift locks the
     * marker table, so concurrent commits queue instead of failing serializable isolation.
     */
    default void beginCommit(Connection c, String qualifiedMarker) throws SQLException {}

    /** What the schema evolution policy widens, for the message that refuses a change. */
    default String evolutionPolicy() {
        return "Skippr adds columns and widens smallint → integer → bigint →"
                + " numeric, real → double precision, numeric(p,s) to a wider numeric"
                + " and varchar(n) → text";
    }

    /**
     * Makes {@code replacement} the table {@code table} within the open transaction, keeping the
     * old table's owner and grants; the old table's rows are gone after commit.
     */
    void swap(Connection c, String schema, String table, String replacement) throws SQLException;

    /** Whether views or rules depend on the table, so it cannot be dropped and replaced. */
    boolean hasDependents(Connection c, String schema, String table) throws SQLException;

    /** The DDL of the {@link SqlNames#MARKER_TABLE} marker table. */
    String markerTable(String qualified);

    /**
     * The DDL creating the loads table ({@link LoadsTable}) {@code qualified} if it does not exist;
     * null where this dialect records no loads.
     */
    default String loadsTable(String qualified) {
        return null;
    }
}
