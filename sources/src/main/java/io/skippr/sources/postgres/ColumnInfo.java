package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.util.Objects;

/**
 * A column as the source reads it.
 *
 * @param name the column name as in the catalog
 * @param type Skippr's type for its values
 * @param nullable false when the column is NOT NULL
 * @param pgType PostgreSQL's name of the declared type, with modifiers ({@code numeric(10,2)})
 * @param castType the quoted, schema-qualified name of the base type, without modifiers ({@code
 *     "pg_catalog"."timestamptz"}): bounds are written as {@code ?::castType} from text
 * @param nativeOrder true when the column can be ordered as itself; false to order by its text
 */
public record ColumnInfo(
        String name,
        DataType type,
        boolean nullable,
        String pgType,
        String castType,
        boolean nativeOrder) {

    public ColumnInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(pgType, "pgType");
        Objects.requireNonNull(castType, "castType");
    }

    /** The column, qualified by {@code alias}, as an ORDER BY term of a deterministic order. */
    String orderExpression(String alias) {
        String column = alias + "." + Sql.quote(name);
        return nativeOrder ? column : column + "::text";
    }
}
