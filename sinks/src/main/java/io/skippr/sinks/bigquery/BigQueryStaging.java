package io.skippr.sinks.bigquery;

import com.google.cloud.bigquery.BigQuery;
import com.google.cloud.bigquery.BigQueryException;
import com.google.cloud.bigquery.DatasetId;
import com.google.cloud.bigquery.Table;
import com.google.cloud.bigquery.TableId;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.Staging;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Staging tables in the target dataset, made and read through the tables API: the writer's {@link
 * WriteStreamLoader} creates each one (its description says which pipeline, sink, run, subtask and
 * checkpoint it holds) and fills it through a committed PENDING write stream; the commit moves its
 * rows and drops it after the marker row is in.
 */
final class BigQueryStaging implements Staging {
    private static final long serialVersionUID = 1L;

    private final BigQueryConnect connect;

    BigQueryStaging(BigQueryConnect connect) {
        this.connect = connect;
    }

    @Override
    public List<SqlDialect.StagingInfo> list(Connection c, SqlSinkSettings settings)
            throws SQLException {
        BigQuery bq = c.unwrap(QueryConnection.Link.class).rest();
        List<SqlDialect.StagingInfo> out = new ArrayList<>();
        try {
            for (Table t :
                    bq.listTables(DatasetId.of(connect.project(), settings.schema()))
                            .iterateAll()) {
                String name = t.getTableId().getTable();
                if (!name.startsWith(SqlNames.STAGING_PREFIX)) {
                    continue;
                }
                Table full = bq.getTable(t.getTableId());
                if (full != null) {
                    out.add(
                            new SqlDialect.StagingInfo(
                                    name,
                                    full.getDescription() == null ? "" : full.getDescription()));
                }
            }
        } catch (BigQueryException e) {
            throw QueryConnection.failure(e);
        }
        return out;
    }

    @Override
    public void discard(Connection c, SqlSinkSettings settings, String name) throws SQLException {
        try {
            c.unwrap(QueryConnection.Link.class)
                    .rest()
                    .delete(TableId.of(connect.project(), settings.schema(), name));
        } catch (BigQueryException e) {
            throw QueryConnection.failure(e);
        }
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
}
