package io.skippr.sources.postgres.cdc;

import io.skippr.core.record.DataType;
import java.sql.SQLException;

/** Skippr's type for the values of a column a Relation message describes. */
interface TypeLookup {
    DataType type(int typeOid, int typmod) throws SQLException;
}
