package io.skippr.job.deadletters;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.job.Connectors;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import java.util.List;

/**
 * Opens a pipeline's deadletter sink for reading, where its kind's factory says it keeps them
 * ({@link KeepsDeadletters}): a SQL table, the files it committed, an Iceberg table, or rows its
 * own client reads. Kinds that keep nothing to read back are refused with the reason and what to
 * use instead.
 */
public final class DeadletterStores {
    private DeadletterStores() {}

    private static final String USE_INSTEAD =
            "; to list and replay deadletters, use a table (Postgres, DuckDB, MotherDuck,"
                    + " ClickHouse, Redshift, Snowflake, Databricks, Synapse, BigQuery,"
                    + " SkipprLake, AthenaIceberg) or files (LocalFile, S3, GCS, AzureBlob, SFTP, Athena) as the"
                    + " deadletter sink";

    /**
     * The store of deadletter sink {@code entry} ({@code deadletter_sinks.<entry>}) of {@code
     * pipeline}.
     *
     * @throws CannotReadDeadletters for a kind whose deadletters cannot be read back
     */
    public static DeadletterStore open(String pipeline, String entry, ResolvedSettings settings) {
        String kind = settings.entry().kind().name();
        String named = "deadletter_sinks." + entry + " (" + kind + ")";
        SinkFactory factory = Connectors.sink(kind);
        if (!(factory instanceof KeepsDeadletters keeps)) {
            throw new CannotReadDeadletters(
                    named + " does not say where it keeps deadletters" + USE_INSTEAD);
        }
        KeptDeadletters kept =
                keeps.deadletters(
                        new SinkContext(pipeline, entry, settings, false, null, "append"));
        if (kept instanceof KeptDeadletters.SqlTable t) {
            return new SqlDeadletterStore(t.database(), t.schema());
        }
        if (kept instanceof KeptDeadletters.Files f) {
            return new FileDeadletterStore(f.store(), f.format());
        }
        if (kept instanceof KeptDeadletters.LakeTable l) {
            return new LakeDeadletterStore(l.catalog(), l.namespace());
        }
        if (kept instanceof KeptDeadletters.Rows r) {
            return new RowsDeadletterStore(r.reader());
        }
        if (kept instanceof KeptDeadletters.Nothing n) {
            return new DeadletterStore() {
                @Override
                public List<StoredDeadletter> read(String p) {
                    return List.of(); // the sink was never written to
                }

                @Override
                public String describe() {
                    return n.where();
                }
            };
        }
        throw new CannotReadDeadletters(
                named + " " + ((KeptDeadletters.NotReadBack) kept).why() + USE_INSTEAD);
    }
}
