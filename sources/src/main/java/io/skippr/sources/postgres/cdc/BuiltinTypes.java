package io.skippr.sources.postgres.cdc;

import io.skippr.core.record.DataType;
import io.skippr.sources.postgres.PgTypes;
import java.util.Map;

/**
 * Skippr types of the columns a Relation message describes by type oid: the built-in types' fixed
 * oids mapped by the source's own {@link PgTypes}; any other type (a domain, an enum, an extension
 * type, an array) as STRING, its text.
 */
final class BuiltinTypes {
    private static final Map<Integer, String> NAMES =
            Map.ofEntries(
                    Map.entry(16, "bool"),
                    Map.entry(17, "bytea"),
                    Map.entry(18, "char"),
                    Map.entry(19, "name"),
                    Map.entry(20, "int8"),
                    Map.entry(21, "int2"),
                    Map.entry(23, "int4"),
                    Map.entry(25, "text"),
                    Map.entry(114, "json"),
                    Map.entry(700, "float4"),
                    Map.entry(701, "float8"),
                    Map.entry(1042, "bpchar"),
                    Map.entry(1043, "varchar"),
                    Map.entry(1082, "date"),
                    Map.entry(1083, "time"),
                    Map.entry(1114, "timestamp"),
                    Map.entry(1184, "timestamptz"),
                    Map.entry(1700, "numeric"),
                    Map.entry(2950, "uuid"),
                    Map.entry(3802, "jsonb"));

    private BuiltinTypes() {}

    static DataType of(int oid, int typmod) {
        DataType type = known(oid, typmod);
        return type == null ? DataType.STRING : type;
    }

    /** The type of a built-in type's oid, null for another oid. */
    static DataType known(int oid, int typmod) {
        String name = NAMES.get(oid);
        return name == null ? null : PgTypes.map(name, true, 'X', typmod);
    }
}
