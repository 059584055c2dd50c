// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Google BigQuery data sink. Loads tables into a BigQuery dataset. */
public final class DataSinkBigQuery extends Connector<DataSinkBigQuery> {
    public DataSinkBigQuery() {
        super(Role.DATA_SINK, "BigQuery");
    }

    /** Google Cloud project. Required. */
    public DataSinkBigQuery projectId(String value) {
        return set("project_id", value);
    }

    /** Google Cloud project. Required. From an environment variable. */
    public DataSinkBigQuery projectId(EnvRef value) {
        return set("project_id", value);
    }

    /** Dataset the tables are created in. Required. */
    public DataSinkBigQuery dataset(String value) {
        return set("dataset", value);
    }

    /** Dataset the tables are created in. Required. From an environment variable. */
    public DataSinkBigQuery dataset(EnvRef value) {
        return set("dataset", value);
    }

    /** Dataset location. Default: US. */
    public DataSinkBigQuery location(String value) {
        return set("location", value);
    }

    /** Dataset location. Default: US. From an environment variable. */
    public DataSinkBigQuery location(EnvRef value) {
        return set("location", value);
    }

    /** Service account key file (default: application default credentials). */
    public DataSinkBigQuery credentialsFile(String value) {
        return set("credentials_file", value);
    }

    /** Service account key file (default: application default credentials). From an environment variable. */
    public DataSinkBigQuery credentialsFile(EnvRef value) {
        return set("credentials_file", value);
    }

    /** BigQuery REST API root URL, for tests and private endpoints (default: Google). */
    public DataSinkBigQuery endpoint(String value) {
        return set("endpoint", value);
    }

    /** BigQuery REST API root URL, for tests and private endpoints (default: Google). From an environment variable. */
    public DataSinkBigQuery endpoint(EnvRef value) {
        return set("endpoint", value);
    }

    /** host:port of the Storage Write API, for tests and private endpoints; http://host:port for plain gRPC on this machine (default: Google). */
    public DataSinkBigQuery writeEndpoint(String value) {
        return set("write_endpoint", value);
    }

    /** host:port of the Storage Write API, for tests and private endpoints; http://host:port for plain gRPC on this machine (default: Google). From an environment variable. */
    public DataSinkBigQuery writeEndpoint(EnvRef value) {
        return set("write_endpoint", value);
    }
}
