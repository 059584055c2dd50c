package io.skippr.sinks.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Staging in tables of the target schema, named by {@link SqlNames#staging} and described by their
 * comment: the writer's loader fills them, the commit's transaction drops them.
 */
public final class StagingTables implements Staging {
    private static final long serialVersionUID = 1L;

    public static final StagingTables INSTANCE = new StagingTables();

    private StagingTables() {}

    @Override
    public List<SqlDialect.StagingInfo> list(Connection c, SqlSinkSettings settings)
            throws SQLException {
        return settings.dialect().stagingTables(c, settings.schema());
    }

    @Override
    public void discard(Connection c, SqlSinkSettings settings, String name) throws SQLException {
        MarkerTable.execute(c, "DROP TABLE IF EXISTS " + settings.qualified(name));
    }

    @Override
    public boolean load(Connection c, SqlSinkSettings settings, SqlCommittable rows)
            throws SQLException {
        return settings.dialect().columns(c, settings.schema(), rows.staging()) != null;
    }

    @Override
    public void committed(SqlSinkSettings settings, List<SqlCommittable> committables) {}

    @Override
    public String describe(SqlSinkSettings settings, String name) {
        return "Staging table " + settings.qualified(name);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
