// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** SFTP data sink. Writes files to a folder on an SFTP server. */
public final class DataSinkSFTP extends Connector<DataSinkSFTP> {
    public DataSinkSFTP() {
        super(Role.DATA_SINK, "SFTP");
    }

    /** SFTP server host name. Required. */
    public DataSinkSFTP host(String value) {
        return set("host", value);
    }

    /** SFTP server host name. Required. From an environment variable. */
    public DataSinkSFTP host(EnvRef value) {
        return set("host", value);
    }

    /** SFTP server port. Default: 22. */
    public DataSinkSFTP port(long value) {
        return set("port", value);
    }

    /** SFTP server port. Default: 22. From an environment variable. */
    public DataSinkSFTP port(EnvRef value) {
        return set("port", value);
    }

    /** User to log in as. Required. */
    public DataSinkSFTP user(String value) {
        return set("user", value);
    }

    /** User to log in as. Required. From an environment variable. */
    public DataSinkSFTP user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. */
    public DataSinkSFTP password(String value) {
        return set("password", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkSFTP password(EnvRef value) {
        return set("password", value);
    }

    /** Private key file for key auth. */
    public DataSinkSFTP privateKeyFile(String value) {
        return set("private_key_file", value);
    }

    /** Private key file for key auth. From an environment variable. */
    public DataSinkSFTP privateKeyFile(EnvRef value) {
        return set("private_key_file", value);
    }

    /** Passphrase of the key. Secret: prefer an EnvRef. */
    public DataSinkSFTP privateKeyPassphrase(String value) {
        return set("private_key_passphrase", value);
    }

    /** Passphrase of the key. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkSFTP privateKeyPassphrase(EnvRef value) {
        return set("private_key_passphrase", value);
    }

    /** known_hosts file that holds the server's host key (default: ~/.ssh/known_hosts). */
    public DataSinkSFTP knownHostsFile(String value) {
        return set("known_hosts_file", value);
    }

    /** known_hosts file that holds the server's host key (default: ~/.ssh/known_hosts). From an environment variable. */
    public DataSinkSFTP knownHostsFile(EnvRef value) {
        return set("known_hosts_file", value);
    }

    /** Remote folder the files are written to. Required. */
    public DataSinkSFTP path(String value) {
        return set("path", value);
    }

    /** Remote folder the files are written to. Required. From an environment variable. */
    public DataSinkSFTP path(EnvRef value) {
        return set("path", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. */
    public DataSinkSFTP format(String value) {
        return set("format", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. From an environment variable. */
    public DataSinkSFTP format(EnvRef value) {
        return set("format", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. */
    public DataSinkSFTP compression(String value) {
        return set("compression", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. From an environment variable. */
    public DataSinkSFTP compression(EnvRef value) {
        return set("compression", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. */
    public DataSinkSFTP rollSizeMb(long value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. From an environment variable. */
    public DataSinkSFTP rollSizeMb(EnvRef value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). */
    public DataSinkSFTP rollIntervalSeconds(long value) {
        return set("roll_interval_seconds", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). From an environment variable. */
    public DataSinkSFTP rollIntervalSeconds(EnvRef value) {
        return set("roll_interval_seconds", value);
    }
}
