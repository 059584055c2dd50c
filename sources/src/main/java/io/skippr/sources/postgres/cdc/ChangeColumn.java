package io.skippr.sources.postgres.cdc;

import io.skippr.core.record.DataType;

/**
 * A column of a changed table, as the stream's Relation message described it.
 *
 * @param key part of the table's replica identity (the primary key under DEFAULT, every column
 *     under FULL)
 * @param typeOid the PostgreSQL type's oid
 * @param typmod the type modifier, -1 for none
 * @param type Skippr's type for its values
 */
public record ChangeColumn(String name, boolean key, int typeOid, int typmod, DataType type) {}
