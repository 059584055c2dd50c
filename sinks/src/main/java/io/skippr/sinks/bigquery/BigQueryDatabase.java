package io.skippr.sinks.bigquery;

import com.google.cloud.bigquery.BigQueryException;
import com.google.cloud.bigquery.DatasetId;
import com.google.cloud.bigquery.DatasetInfo;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.Staging;
import io.skippr.sinks.sql.StagingLoader;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A BigQuery dataset as the SQL family uses it: statements as query jobs ({@link QueryConnection}),
 * staging tables made through the tables API and filled through the Storage Write API ({@link
 * WriteStreamLoader}, {@link BigQueryStaging}). Credentials never leave {@link BigQueryConnect};
 * messages name the project, dataset and location.
 */
public record BigQueryDatabase(BigQueryConnect target) implements SqlDatabase {
    private static final long serialVersionUID = 1L;
    private static final BigQueryDialect DIALECT = new BigQueryDialect();

    /** The roles a sink needs, for messages. */
    static final String ROLES =
            "grant roles/bigquery.dataEditor on the dataset (or project) and roles/bigquery.jobUser"
                    + " on the project to the service account (docs/connectors/bigquery.md)";

    @Override
    public BigQueryDialect dialect() {
        return DIALECT;
    }

    @Override
    public Staging staging() {
        return new BigQueryStaging(target);
    }

    @Override
    public Connection connect() throws IOException {
        return QueryConnection.open(target);
    }

    @Override
    public StagingLoader loader(Connection connection) throws IOException {
        try {
            return new WriteStreamLoader(
                    target, connection.unwrap(QueryConnection.Link.class).rest());
        } catch (SQLException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Creates the dataset in its location where missing (datasets API); a missing permission fails
     * here, before any work, naming the roles to grant.
     */
    @Override
    public void checkAccess(Connection c, String schema) throws IOException {
        try {
            var bq = c.unwrap(QueryConnection.Link.class).rest();
            DatasetId id = DatasetId.of(target.project(), schema);
            var dataset = bq.getDataset(id);
            if (dataset == null) {
                try {
                    bq.create(DatasetInfo.newBuilder(id).setLocation(target.location()).build());
                } catch (BigQueryException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                }
            } else if (dataset.getLocation() != null
                    && !dataset.getLocation().equalsIgnoreCase(target.location())) {
                throw new SqlFailureException(
                        "dataset "
                                + target.project()
                                + "."
                                + schema
                                + " is in location "
                                + dataset.getLocation()
                                + ", not "
                                + target.location()
                                + ": set the data sink's location to "
                                + dataset.getLocation(),
                        null);
            }
        } catch (BigQueryException e) {
            throw failure(
                    "creating dataset " + schema + " (create it yourself, or " + ROLES + ")",
                    QueryConnection.failure(e));
        } catch (SQLException e) {
            throw failure("reading dataset " + schema, e);
        }
    }

    @Override
    public IOException failure(String doing, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        String what;
        if (state.equals("28000")) {
            what =
                    message
                            + ": check the credentials (credentials_file, or the application"
                            + " default credentials) and "
                            + ROLES;
        } else if (state.startsWith("08")) {
            what = "cannot connect: " + message;
        } else {
            what = message;
        }
        return new SqlFailureException(what + " — while " + doing + " on " + describe(), e);
    }

    /** Lost connections, rate limits, backend errors and concurrent-update conflicts. */
    @Override
    public boolean retriable(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String m = e.getMessage() == null ? "" : e.getMessage();
        return state.startsWith("08")
                || m.startsWith("rateLimitExceeded")
                || m.startsWith("jobRateLimitExceeded")
                || m.startsWith("backendError")
                || m.startsWith("internalError")
                || m.contains("due to concurrent update");
    }

    @Override
    public String describe() {
        return target.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
