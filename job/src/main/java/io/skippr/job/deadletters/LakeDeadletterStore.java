package io.skippr.job.deadletters;

import io.skippr.core.record.Deadletter;
import io.skippr.job.query.LakeQuery;
import io.skippr.job.query.WalQuery;
import io.skippr.sinks.iceberg.IcebergCatalogFactory;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code skippr_deadletters} Iceberg table of a SkipprLake or AthenaIceberg deadletter sink,
 * read at its current snapshot through {@link LakeQuery}.
 */
final class LakeDeadletterStore implements DeadletterStore {
    private final IcebergCatalogFactory catalog;
    private final String namespace;

    LakeDeadletterStore(IcebergCatalogFactory catalog, String namespace) {
        this.catalog = catalog;
        this.namespace = namespace;
    }

    @Override
    public String describe() {
        return "table " + namespace + "." + Deadletter.STREAM + " of " + catalog.describe();
    }

    @Override
    public List<StoredDeadletter> read(String pipeline) throws IOException {
        List<StoredDeadletter> out = new ArrayList<>();
        if (!LakeQuery.tables(catalog, namespace).contains(Deadletter.STREAM)) {
            return out; // created with the first deadletter
        }
        String sql =
                "SELECT \"_skippr_id\", \"stream\", \"stage\", \"error_class\", \"error_message\","
                        + " CAST(epoch_us(\"failed_at\") AS VARCHAR), \"source_position\","
                        + " \"payload\", CAST(\"data_run\" AS VARCHAR) FROM "
                        + SqlDeadletterStore.quote(Deadletter.STREAM)
                        + " WHERE \"pipeline\" = '"
                        + pipeline.replace("'", "''")
                        + "'";
        WalQuery.Result result;
        try {
            result = LakeQuery.run(catalog, namespace, sql);
        } catch (SQLException e) {
            throw new IOException("Could not read " + describe() + ": " + e.getMessage(), e);
        }
        for (List<String> row : result.rows()) {
            out.add(
                    new StoredDeadletter(
                            row.get(0),
                            row.get(1),
                            row.get(2),
                            row.get(3),
                            row.get(4),
                            Instant.EPOCH.plus(Long.parseLong(row.get(5)), ChronoUnit.MICROS),
                            row.get(6),
                            row.get(7),
                            Long.parseLong(row.get(8))));
        }
        return out;
    }
}
