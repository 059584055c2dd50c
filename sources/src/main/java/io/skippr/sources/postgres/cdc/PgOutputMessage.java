package io.skippr.sources.postgres.cdc;

import java.util.List;

/**
 * The messages of PostgreSQL's {@code pgoutput} plugin, protocol version 1, as {@link
 * PgOutputDecoder} reads them (PostgreSQL's "Logical Replication Message Formats"). LSNs are the
 * 64-bit WAL positions; times are microseconds since 2000-01-01 UTC, PostgreSQL's epoch.
 */
sealed interface PgOutputMessage {

    /** 'B': a transaction starts; {@code finalLsn} is its commit record's LSN. */
    record Begin(long finalLsn, long commitTimeMicros, long xid) implements PgOutputMessage {}

    /** 'C': the transaction ends; {@code endLsn} is the first position after its commit. */
    record Commit(int flags, long commitLsn, long endLsn, long commitTimeMicros)
            implements PgOutputMessage {}

    /** 'O': the changes came from another replication origin. */
    record Origin(long lsn, String name) implements PgOutputMessage {}

    /**
     * 'R': a table's columns as the changes after it carry them; sent before the first change of a
     * table in a session and again after its schema changed.
     *
     * @param schema the namespace, "pg_catalog" when PostgreSQL sent an empty one
     * @param replicaIdentity {@code d} default (the key), {@code f} full, {@code i} an index,
     *     {@code n} nothing
     */
    record Relation(
            int oid, String schema, String table, char replicaIdentity, List<Column> columns)
            implements PgOutputMessage {}

    /** A column of a {@link Relation}; {@code key} when it is part of the replica identity. */
    record Column(boolean key, String name, int typeOid, int typmod) {}

    /** 'Y': a type that is not built in, sent before a relation that uses it. */
    record Type(int oid, String schema, String name) implements PgOutputMessage {}

    /** 'I'. */
    record Insert(int relationOid, Tuple newTuple) implements PgOutputMessage {}

    /**
     * 'U'. {@code oldTuple} is null when PostgreSQL sent none (the key did not change under replica
     * identity DEFAULT); {@code oldIsKey} when it holds only the key columns ('K'), false for the
     * whole old row ('O', replica identity FULL).
     */
    record Update(int relationOid, Tuple oldTuple, boolean oldIsKey, Tuple newTuple)
            implements PgOutputMessage {}

    /** 'D': the old key ('K', {@code oldIsKey}) or the whole old row ('O'). */
    record Delete(int relationOid, Tuple oldTuple, boolean oldIsKey) implements PgOutputMessage {}

    /** 'T': {@code options} bit 1 is CASCADE, bit 2 RESTART IDENTITY. */
    record Truncate(int options, List<Integer> relationOids) implements PgOutputMessage {}

    /** 'M': a message written by pg_logical_emit_message. */
    record Message(boolean transactional, long lsn, String prefix, byte[] content)
            implements PgOutputMessage {}

    /** A row: one cell per column of its relation. */
    record Tuple(List<Cell> cells) {}

    /**
     * A column's value in a {@link Tuple}: {@code kind} is {@code n} (null), {@code u} (a TOASTed
     * value the change left as it was, not sent), {@code t} (text) or {@code b} (binary); {@code
     * bytes} is null for {@code n} and {@code u}.
     */
    record Cell(char kind, byte[] bytes) {
        static final Cell NULL = new Cell('n', null);
        static final Cell UNCHANGED = new Cell('u', null);
    }
}
