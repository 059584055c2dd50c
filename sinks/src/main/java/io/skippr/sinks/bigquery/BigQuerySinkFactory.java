package io.skippr.sinks.bigquery;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.sql.SqlReadBack;
import io.skippr.sinks.sql.SqlSinks;
import java.util.Map;

/**
 * The {@code BigQuery} data sink: tables in one dataset, rows staged per checkpoint through the
 * Storage Write API's PENDING streams, then moved by query jobs that are each repeatable, the
 * marker row last (see {@code docs/connectors/bigquery.md}).
 */
public final class BigQuerySinkFactory implements SinkFactory, KeepsDeadletters, SqlReadBack {
    @Override
    public String kind() {
        return "BigQuery";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        return SqlSinks.sink(
                database(context),
                context.settings().requireString("dataset"),
                new BigQueryRowCheck(),
                context);
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return SqlSinks.committedPositions(
                database(context), context, context.settings().requireString("dataset"));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        return SqlSinks.forgetPositions(
                database(context), context, context.settings().requireString("dataset"));
    }

    /** The project as the sink connects to it; verify sends it only SELECT query jobs. */
    @Override
    public BigQueryDatabase readOnly(ResolvedSettings settings) {
        return database(settings);
    }

    /** The dataset. */
    @Override
    public String schema(ResolvedSettings settings) {
        return settings.requireString("dataset");
    }

    private static BigQueryDatabase database(SinkContext context) {
        return database(context.settings());
    }

    private static BigQueryDatabase database(ResolvedSettings s) {
        String dataset = s.requireString("dataset");
        BigQueryConnect connect;
        try {
            connect =
                    BigQueryConnect.of(
                            s.requireString("project_id"),
                            dataset,
                            s.string("location").orElse("US"),
                            s.string("credentials_file").orElse(null),
                            s.string("endpoint").orElse(null),
                            s.string("write_endpoint").orElse(null));
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(
                    "skippr.yml",
                    "data_sinks." + s.entry().name() + ".BigQuery: " + e.getMessage());
        }
        return new BigQueryDatabase(connect);
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.SqlTable(
                database(context), context.settings().requireString("dataset"));
    }
}
