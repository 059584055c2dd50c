# Generated from the connector catalog by scripts/generate; do not edit.
"""The connectors of every kind the catalog declares."""

from __future__ import annotations

from typing import List, Optional, Union

from ._connector import Connector, EnvRef

__all__ = [
    "DataSourceLocalFile",
    "DataSourcePostgres",
    "DataSinkAMQP",
    "DataSinkAthena",
    "DataSinkAthenaIceberg",
    "DataSinkAzureBlob",
    "DataSinkBigQuery",
    "DataSinkClickHouse",
    "DataSinkDatabricks",
    "DataSinkDuckDB",
    "DataSinkGCS",
    "DataSinkLocalFile",
    "DataSinkMotherDuck",
    "DataSinkPostgres",
    "DataSinkRedshift",
    "DataSinkS3",
    "DataSinkSFTP",
    "DataSinkSkipprLake",
    "DataSinkSnowflake",
    "DataSinkStdout",
    "DataSinkSynapse",
    "SchemaSinkAthenaIceberg",
    "SchemaSinkDuckDB",
    "SchemaSinkGlue",
    "SchemaSinkSkipprLake",
]


class DataSourceLocalFile(Connector):
    """Local file data source. Reads CSV, JSONL or Parquet files matched by a glob.

    Args:
        path: Glob of the files to read, such as data/orders/*.csv. Required.
        format: File format (default: from the file extension). One of parquet, jsonl, csv.
        stream: Stream name of the files (default: the data source's name).
    """

    _role = "data_source"
    _kind = "LocalFile"

    def __init__(
        self,
        *,
        path: Optional[Union[str, EnvRef]] = None,
        format: Optional[Union[str, EnvRef]] = None,
        stream: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("path", path),
            ("format", format),
            ("stream", stream),
        )


class DataSourcePostgres(Connector):
    """PostgreSQL data source. Reads tables from a PostgreSQL database.

    Args:
        host: PostgreSQL server host name. Required.
        port: PostgreSQL server port. Default: 5432.
        user: Role to log in as. Required.
        password: Password of the role. Secret: prefer an EnvRef.
        database: Database to connect to. Required.
        schema: Schema whose tables are read. Default: public.
        tables: Tables to read, by name or pattern such as orders_* (default: every table of the schema).
        cursor_column: Column whose growth marks new or changed rows (such as updated_at or id), for incremental syncs.
        replication_method: How changes are read: cdc (logical replication: every insert, update and delete), cursor (rows whose cursor_column grew) or full (every row each run); default cursor with cursor_column, else full. One of cdc, cursor, full.
        slot_name: Logical replication slot of replication_method cdc (default skippr_<pipeline>).
        publication: Publication of replication_method cdc (default skippr_<pipeline>).
        slot_wal_warning_mb: replication_method cdc: warn when the slot keeps more than this many MiB of WAL on the server (default 1024).
        slot_inactive_warning_minutes: replication_method cdc: warn when the slot has not been read for this many minutes (PostgreSQL 17 and later; before 17, when it is not being read and keeps more than slot_wal_warning_mb) (default 60).
        sslmode: TLS mode of the connection, as in libpq. Default: prefer. One of disable, allow, prefer, require, verify-ca, verify-full.
        sslrootcert: CA certificate file that sslmode verify-ca and verify-full check the server against (default: ~/.postgresql/root.crt, as in libpq).
    """

    _role = "data_source"
    _kind = "Postgres"
    _secrets = ("password",)

    def __init__(
        self,
        *,
        host: Optional[Union[str, EnvRef]] = None,
        port: Optional[Union[int, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        database: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
        tables: Optional[List[str]] = None,
        cursor_column: Optional[Union[str, EnvRef]] = None,
        replication_method: Optional[Union[str, EnvRef]] = None,
        slot_name: Optional[Union[str, EnvRef]] = None,
        publication: Optional[Union[str, EnvRef]] = None,
        slot_wal_warning_mb: Optional[Union[int, EnvRef]] = None,
        slot_inactive_warning_minutes: Optional[Union[int, EnvRef]] = None,
        sslmode: Optional[Union[str, EnvRef]] = None,
        sslrootcert: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("host", host),
            ("port", port),
            ("user", user),
            ("password", password),
            ("database", database),
            ("schema", schema),
            ("tables", tables),
            ("cursor_column", cursor_column),
            ("replication_method", replication_method),
            ("slot_name", slot_name),
            ("publication", publication),
            ("slot_wal_warning_mb", slot_wal_warning_mb),
            ("slot_inactive_warning_minutes", slot_inactive_warning_minutes),
            ("sslmode", sslmode),
            ("sslrootcert", sslrootcert),
        )


class DataSinkAMQP(Connector):
    """AMQP 0-9-1 (RabbitMQ) data sink. Publishes each record as a persistent JSON message to an exchange, with publisher confirms.

    Args:
        host: Broker host name. Required.
        port: Broker port (default: 5672, or 5671 with tls).
        user: User to log in as. Default: guest.
        password: Password of the user. Secret: prefer an EnvRef.
        virtual_host: Virtual host. Default: /.
        exchange: Exchange to publish to (default: the default exchange).
        routing_key: Routing key of each message (default: the stream name).
        tls: Connect with TLS, checking the broker's certificate and host name. Default: false.
        tls_ca_file: CA certificate file (PEM) the broker's certificate is checked against, with tls (default: the CAs Java trusts).
    """

    _role = "data_sink"
    _kind = "AMQP"
    _secrets = ("password",)

    def __init__(
        self,
        *,
        host: Optional[Union[str, EnvRef]] = None,
        port: Optional[Union[int, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        virtual_host: Optional[Union[str, EnvRef]] = None,
        exchange: Optional[Union[str, EnvRef]] = None,
        routing_key: Optional[Union[str, EnvRef]] = None,
        tls: Optional[Union[bool, EnvRef]] = None,
        tls_ca_file: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("host", host),
            ("port", port),
            ("user", user),
            ("password", password),
            ("virtual_host", virtual_host),
            ("exchange", exchange),
            ("routing_key", routing_key),
            ("tls", tls),
            ("tls_ca_file", tls_ca_file),
        )


class DataSinkAthena(Connector):
    """Amazon Athena data sink. Writes Parquet files to S3 for Athena, partitioned Hive-style.

    Args:
        s3_bucket: S3 bucket the files are written to. Required.
        s3_prefix: Key prefix inside the bucket, without a trailing slash.
        athena_workgroup_name: Athena workgroup that runs queries. Required.
        athena_results_s3_bucket: S3 bucket where Athena writes query results. Required.
        region: AWS region (default: from the AWS SDK's region chain).
        s3_endpoint: S3 endpoint URL, for S3-compatible stores (default: AWS).
    """

    _role = "data_sink"
    _kind = "Athena"

    def __init__(
        self,
        *,
        s3_bucket: Optional[Union[str, EnvRef]] = None,
        s3_prefix: Optional[Union[str, EnvRef]] = None,
        athena_workgroup_name: Optional[Union[str, EnvRef]] = None,
        athena_results_s3_bucket: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
        s3_endpoint: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("s3_bucket", s3_bucket),
            ("s3_prefix", s3_prefix),
            ("athena_workgroup_name", athena_workgroup_name),
            ("athena_results_s3_bucket", athena_results_s3_bucket),
            ("region", region),
            ("s3_endpoint", s3_endpoint),
        )


class DataSinkAthenaIceberg(Connector):
    """Amazon Athena Iceberg data sink. Writes Iceberg tables on S3, cataloged in Glue, for Athena.

    Args:
        s3_bucket: S3 bucket the files are written to. Required.
        s3_prefix: Key prefix inside the bucket, without a trailing slash.
        athena_workgroup_name: Athena workgroup that runs queries. Required.
        athena_results_s3_bucket: S3 bucket where Athena writes query results. Required.
        region: AWS region (default: from the AWS SDK's region chain).
        s3_endpoint: S3 endpoint URL, for S3-compatible stores (default: AWS).
        glue_database_name: Glue database that holds the tables. Required.
        glue_endpoint: Glue endpoint URL (default: AWS).
    """

    _role = "data_sink"
    _kind = "AthenaIceberg"

    def __init__(
        self,
        *,
        s3_bucket: Optional[Union[str, EnvRef]] = None,
        s3_prefix: Optional[Union[str, EnvRef]] = None,
        athena_workgroup_name: Optional[Union[str, EnvRef]] = None,
        athena_results_s3_bucket: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
        s3_endpoint: Optional[Union[str, EnvRef]] = None,
        glue_database_name: Optional[Union[str, EnvRef]] = None,
        glue_endpoint: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("s3_bucket", s3_bucket),
            ("s3_prefix", s3_prefix),
            ("athena_workgroup_name", athena_workgroup_name),
            ("athena_results_s3_bucket", athena_results_s3_bucket),
            ("region", region),
            ("s3_endpoint", s3_endpoint),
            ("glue_database_name", glue_database_name),
            ("glue_endpoint", glue_endpoint),
        )


class DataSinkAzureBlob(Connector):
    """Azure Blob Storage data sink. Writes files to an Azure Blob Storage container.

    Args:
        account_name: Storage account name. Required.
        account_key: Storage account key (default: the Azure credential chain). Secret: prefer an EnvRef.
        container: Container the blobs are written to. Required.
        prefix: Blob name prefix, without a trailing slash.
        endpoint: Blob service URL (default: https://<account_name>.blob.core.windows.net).
        format: File format of the written files. Default: parquet. One of parquet, jsonl, csv.
        compression: Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none.
        roll_size_mb: Start a new file once one holds this many MiB. Default: 128.
        roll_interval_seconds: Start a new file once one has been open this long (default: files roll only at checkpoints and by size).
    """

    _role = "data_sink"
    _kind = "AzureBlob"
    _secrets = ("account_key",)

    def __init__(
        self,
        *,
        account_name: Optional[Union[str, EnvRef]] = None,
        account_key: Optional[Union[str, EnvRef]] = None,
        container: Optional[Union[str, EnvRef]] = None,
        prefix: Optional[Union[str, EnvRef]] = None,
        endpoint: Optional[Union[str, EnvRef]] = None,
        format: Optional[Union[str, EnvRef]] = None,
        compression: Optional[Union[str, EnvRef]] = None,
        roll_size_mb: Optional[Union[int, EnvRef]] = None,
        roll_interval_seconds: Optional[Union[int, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("account_name", account_name),
            ("account_key", account_key),
            ("container", container),
            ("prefix", prefix),
            ("endpoint", endpoint),
            ("format", format),
            ("compression", compression),
            ("roll_size_mb", roll_size_mb),
            ("roll_interval_seconds", roll_interval_seconds),
        )


class DataSinkBigQuery(Connector):
    """Google BigQuery data sink. Loads tables into a BigQuery dataset.

    Args:
        project_id: Google Cloud project. Required.
        dataset: Dataset the tables are created in. Required.
        location: Dataset location. Default: US.
        credentials_file: Service account key file (default: application default credentials).
        endpoint: BigQuery REST API root URL, for tests and private endpoints (default: Google).
        write_endpoint: host:port of the Storage Write API, for tests and private endpoints; http://host:port for plain gRPC on this machine (default: Google).
    """

    _role = "data_sink"
    _kind = "BigQuery"

    def __init__(
        self,
        *,
        project_id: Optional[Union[str, EnvRef]] = None,
        dataset: Optional[Union[str, EnvRef]] = None,
        location: Optional[Union[str, EnvRef]] = None,
        credentials_file: Optional[Union[str, EnvRef]] = None,
        endpoint: Optional[Union[str, EnvRef]] = None,
        write_endpoint: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("project_id", project_id),
            ("dataset", dataset),
            ("location", location),
            ("credentials_file", credentials_file),
            ("endpoint", endpoint),
            ("write_endpoint", write_endpoint),
        )


class DataSinkClickHouse(Connector):
    """ClickHouse data sink. Loads tables into ClickHouse over its HTTP interface.

    Args:
        host: ClickHouse server host name. Required.
        port: HTTP interface port. Default: 8123.
        user: User to log in as. Default: default.
        password: Password of the user. Secret: prefer an EnvRef.
        database: Database the tables are created in. Default: default.
        secure: Use HTTPS. Default: false.
    """

    _role = "data_sink"
    _kind = "ClickHouse"
    _secrets = ("password",)

    def __init__(
        self,
        *,
        host: Optional[Union[str, EnvRef]] = None,
        port: Optional[Union[int, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        database: Optional[Union[str, EnvRef]] = None,
        secure: Optional[Union[bool, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("host", host),
            ("port", port),
            ("user", user),
            ("password", password),
            ("database", database),
            ("secure", secure),
        )


class DataSinkDatabricks(Connector):
    """Databricks data sink. Loads Delta tables through a Databricks SQL warehouse.

    Args:
        server_hostname: Workspace host name. Required.
        http_path: HTTP path of the SQL warehouse (/sql/1.0/warehouses/<id>). Required.
        access_token: Personal access token. Required. Secret: prefer an EnvRef.
        catalog: Unity Catalog catalog. Default: main.
        schema: Schema the tables are created in. Default: default.
        volume: Unity Catalog volume of the schema that Skippr stages Parquet files in (created if absent). Default: skippr_staging.
        endpoint: URL of the workspace's REST APIs, for tests and private deployments (default: https://<server_hostname>).
    """

    _role = "data_sink"
    _kind = "Databricks"
    _secrets = ("access_token",)

    def __init__(
        self,
        *,
        server_hostname: Optional[Union[str, EnvRef]] = None,
        http_path: Optional[Union[str, EnvRef]] = None,
        access_token: Optional[Union[str, EnvRef]] = None,
        catalog: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
        volume: Optional[Union[str, EnvRef]] = None,
        endpoint: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("server_hostname", server_hostname),
            ("http_path", http_path),
            ("access_token", access_token),
            ("catalog", catalog),
            ("schema", schema),
            ("volume", volume),
            ("endpoint", endpoint),
        )


class DataSinkDuckDB(Connector):
    """DuckDB data sink. Loads tables into a DuckDB database file.

    Args:
        path: DuckDB database file (created if missing). Required.
        schema: Schema the tables are created in. Default: main.
    """

    _role = "data_sink"
    _kind = "DuckDB"

    def __init__(
        self,
        *,
        path: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("path", path),
            ("schema", schema),
        )


class DataSinkGCS(Connector):
    """Google Cloud Storage data sink. Writes files to a GCS bucket.

    Args:
        bucket: Bucket the files are written to. Required.
        prefix: Object name prefix, without a trailing slash.
        project_id: Google Cloud project (default: from the credentials).
        credentials_file: Service account key file (default: application default credentials).
        endpoint: GCS JSON API endpoint, for tests and private endpoints (default: Google); plain http only on localhost, and then without credentials.
        format: File format of the written files. Default: parquet. One of parquet, jsonl, csv.
        compression: Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none.
        roll_size_mb: Start a new file once one holds this many MiB. Default: 128.
        roll_interval_seconds: Start a new file once one has been open this long (default: files roll only at checkpoints and by size).
    """

    _role = "data_sink"
    _kind = "GCS"

    def __init__(
        self,
        *,
        bucket: Optional[Union[str, EnvRef]] = None,
        prefix: Optional[Union[str, EnvRef]] = None,
        project_id: Optional[Union[str, EnvRef]] = None,
        credentials_file: Optional[Union[str, EnvRef]] = None,
        endpoint: Optional[Union[str, EnvRef]] = None,
        format: Optional[Union[str, EnvRef]] = None,
        compression: Optional[Union[str, EnvRef]] = None,
        roll_size_mb: Optional[Union[int, EnvRef]] = None,
        roll_interval_seconds: Optional[Union[int, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("bucket", bucket),
            ("prefix", prefix),
            ("project_id", project_id),
            ("credentials_file", credentials_file),
            ("endpoint", endpoint),
            ("format", format),
            ("compression", compression),
            ("roll_size_mb", roll_size_mb),
            ("roll_interval_seconds", roll_interval_seconds),
        )


class DataSinkLocalFile(Connector):
    """Local file data sink. Writes files into a local folder.

    Args:
        path: Folder the files are written to. Required.
        format: File format of the written files. Default: parquet. One of parquet, jsonl, csv.
        compression: Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none.
        roll_size_mb: Start a new file once one holds this many MiB. Default: 128.
        roll_interval_seconds: Start a new file once one has been open this long (default: files roll only at checkpoints and by size).
    """

    _role = "data_sink"
    _kind = "LocalFile"

    def __init__(
        self,
        *,
        path: Optional[Union[str, EnvRef]] = None,
        format: Optional[Union[str, EnvRef]] = None,
        compression: Optional[Union[str, EnvRef]] = None,
        roll_size_mb: Optional[Union[int, EnvRef]] = None,
        roll_interval_seconds: Optional[Union[int, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("path", path),
            ("format", format),
            ("compression", compression),
            ("roll_size_mb", roll_size_mb),
            ("roll_interval_seconds", roll_interval_seconds),
        )


class DataSinkMotherDuck(Connector):
    """MotherDuck data sink. Loads tables into a MotherDuck database.

    Args:
        database: MotherDuck database name. Required.
        token: MotherDuck access token. Required. Secret: prefer an EnvRef.
        schema: Schema the tables are created in. Default: main.
    """

    _role = "data_sink"
    _kind = "MotherDuck"
    _secrets = ("token",)

    def __init__(
        self,
        *,
        database: Optional[Union[str, EnvRef]] = None,
        token: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("database", database),
            ("token", token),
            ("schema", schema),
        )


class DataSinkPostgres(Connector):
    """PostgreSQL data sink. Loads tables into a PostgreSQL schema.

    Args:
        host: PostgreSQL server host name. Required.
        port: PostgreSQL server port. Default: 5432.
        user: Role to log in as. Required.
        password: Password of the role. Secret: prefer an EnvRef.
        database: Database to connect to. Required.
        schema: Schema the tables are created in. Default: public.
        sslmode: TLS mode of the connection, as in libpq. Default: prefer. One of disable, allow, prefer, require, verify-ca, verify-full.
        sslrootcert: CA certificate file that sslmode verify-ca and verify-full check the server against (default: ~/.postgresql/root.crt, as in libpq).
    """

    _role = "data_sink"
    _kind = "Postgres"
    _secrets = ("password",)

    def __init__(
        self,
        *,
        host: Optional[Union[str, EnvRef]] = None,
        port: Optional[Union[int, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        database: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
        sslmode: Optional[Union[str, EnvRef]] = None,
        sslrootcert: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("host", host),
            ("port", port),
            ("user", user),
            ("password", password),
            ("database", database),
            ("schema", schema),
            ("sslmode", sslmode),
            ("sslrootcert", sslrootcert),
        )


class DataSinkRedshift(Connector):
    """Amazon Redshift data sink. Loads tables into Redshift via staged files and COPY.

    Args:
        host: Cluster endpoint host name. Required.
        port: Cluster port. Default: 5439.
        user: User to log in as. Required.
        password: Password of the user. Secret: prefer an EnvRef.
        database: Database to connect to. Required.
        schema: Schema the tables are created in. Default: public.
        ssl: Connect with TLS. Default: true.
        s3_bucket: S3 bucket for staging files. Required.
        iam_role: IAM role ARN that COPY assumes (default: COPY signs with the AWS credentials Skippr stages with).
        region: AWS region (default: from the AWS SDK's region chain).
        endpoint: Endpoint URL of the staging bucket's store, for Skippr's own S3 requests (default: AWS); COPY reads the s3:// URL from AWS.
        path_style_access: Address the bucket in the path, not the host name. Default: false.
    """

    _role = "data_sink"
    _kind = "Redshift"
    _secrets = ("password",)

    def __init__(
        self,
        *,
        host: Optional[Union[str, EnvRef]] = None,
        port: Optional[Union[int, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        database: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
        ssl: Optional[Union[bool, EnvRef]] = None,
        s3_bucket: Optional[Union[str, EnvRef]] = None,
        iam_role: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
        endpoint: Optional[Union[str, EnvRef]] = None,
        path_style_access: Optional[Union[bool, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("host", host),
            ("port", port),
            ("user", user),
            ("password", password),
            ("database", database),
            ("schema", schema),
            ("ssl", ssl),
            ("s3_bucket", s3_bucket),
            ("iam_role", iam_role),
            ("region", region),
            ("endpoint", endpoint),
            ("path_style_access", path_style_access),
        )


class DataSinkS3(Connector):
    """Amazon S3 data sink. Writes files to an S3 bucket.

    Args:
        s3_bucket: S3 bucket the files are written to. Required.
        s3_prefix: Key prefix inside the bucket, without a trailing slash.
        region: AWS region (default: from the AWS SDK's region chain).
        endpoint: Endpoint URL, for S3-compatible stores (default: AWS).
        path_style_access: Address the bucket in the path, not the host name. Default: false.
        format: File format of the written files. Default: parquet. One of parquet, jsonl, csv.
        compression: Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none.
        roll_size_mb: Start a new file once one holds this many MiB. Default: 128.
        roll_interval_seconds: Start a new file once one has been open this long (default: files roll only at checkpoints and by size).
    """

    _role = "data_sink"
    _kind = "S3"

    def __init__(
        self,
        *,
        s3_bucket: Optional[Union[str, EnvRef]] = None,
        s3_prefix: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
        endpoint: Optional[Union[str, EnvRef]] = None,
        path_style_access: Optional[Union[bool, EnvRef]] = None,
        format: Optional[Union[str, EnvRef]] = None,
        compression: Optional[Union[str, EnvRef]] = None,
        roll_size_mb: Optional[Union[int, EnvRef]] = None,
        roll_interval_seconds: Optional[Union[int, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("s3_bucket", s3_bucket),
            ("s3_prefix", s3_prefix),
            ("region", region),
            ("endpoint", endpoint),
            ("path_style_access", path_style_access),
            ("format", format),
            ("compression", compression),
            ("roll_size_mb", roll_size_mb),
            ("roll_interval_seconds", roll_interval_seconds),
        )


class DataSinkSFTP(Connector):
    """SFTP data sink. Writes files to a folder on an SFTP server.

    Args:
        host: SFTP server host name. Required.
        port: SFTP server port. Default: 22.
        user: User to log in as. Required.
        password: Password of the user. Secret: prefer an EnvRef.
        private_key_file: Private key file for key auth.
        private_key_passphrase: Passphrase of the key. Secret: prefer an EnvRef.
        known_hosts_file: known_hosts file that holds the server's host key (default: ~/.ssh/known_hosts).
        path: Remote folder the files are written to. Required.
        format: File format of the written files. Default: parquet. One of parquet, jsonl, csv.
        compression: Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none.
        roll_size_mb: Start a new file once one holds this many MiB. Default: 128.
        roll_interval_seconds: Start a new file once one has been open this long (default: files roll only at checkpoints and by size).
    """

    _role = "data_sink"
    _kind = "SFTP"
    _secrets = ("password", "private_key_passphrase",)

    def __init__(
        self,
        *,
        host: Optional[Union[str, EnvRef]] = None,
        port: Optional[Union[int, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        private_key_file: Optional[Union[str, EnvRef]] = None,
        private_key_passphrase: Optional[Union[str, EnvRef]] = None,
        known_hosts_file: Optional[Union[str, EnvRef]] = None,
        path: Optional[Union[str, EnvRef]] = None,
        format: Optional[Union[str, EnvRef]] = None,
        compression: Optional[Union[str, EnvRef]] = None,
        roll_size_mb: Optional[Union[int, EnvRef]] = None,
        roll_interval_seconds: Optional[Union[int, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("host", host),
            ("port", port),
            ("user", user),
            ("password", password),
            ("private_key_file", private_key_file),
            ("private_key_passphrase", private_key_passphrase),
            ("known_hosts_file", known_hosts_file),
            ("path", path),
            ("format", format),
            ("compression", compression),
            ("roll_size_mb", roll_size_mb),
            ("roll_interval_seconds", roll_interval_seconds),
        )


class DataSinkSkipprLake(Connector):
    """SkipprLake data sink. Writes Iceberg tables to Skippr's own lake.

    Args:
        warehouse: Warehouse location: a local folder or s3://bucket/path. Required.
        catalog_uri: JDBC URL of the Iceberg catalog (default: an embedded catalog in the warehouse).
        catalog_user: User of the catalog database.
        catalog_password: Password of the catalog database. Secret: prefer an EnvRef.
        namespace: Iceberg namespace of the tables. Default: skippr.
        target_file_size_mb: Target size of data files, in MiB. Default: 128.
        compact: Compact small files after each commit. Default: false.
        s3_endpoint: S3 endpoint URL, for S3-compatible stores.
        region: AWS region (default: from the AWS SDK's region chain).
    """

    _role = "data_sink"
    _kind = "SkipprLake"
    _secrets = ("catalog_password",)

    def __init__(
        self,
        *,
        warehouse: Optional[Union[str, EnvRef]] = None,
        catalog_uri: Optional[Union[str, EnvRef]] = None,
        catalog_user: Optional[Union[str, EnvRef]] = None,
        catalog_password: Optional[Union[str, EnvRef]] = None,
        namespace: Optional[Union[str, EnvRef]] = None,
        target_file_size_mb: Optional[Union[int, EnvRef]] = None,
        compact: Optional[Union[bool, EnvRef]] = None,
        s3_endpoint: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("warehouse", warehouse),
            ("catalog_uri", catalog_uri),
            ("catalog_user", catalog_user),
            ("catalog_password", catalog_password),
            ("namespace", namespace),
            ("target_file_size_mb", target_file_size_mb),
            ("compact", compact),
            ("s3_endpoint", s3_endpoint),
            ("region", region),
        )


class DataSinkSnowflake(Connector):
    """Snowflake data sink. Loads tables into Snowflake through an internal stage.

    Args:
        account: Account identifier (orgname-account). Required.
        user: User to log in as. Required.
        password: Password of the user. Secret: prefer an EnvRef.
        private_key_file: Private key file for key-pair authentication.
        private_key_passphrase: Passphrase of the key. Secret: prefer an EnvRef.
        database: Database to load into. Required.
        schema: Schema the tables are created in. Default: PUBLIC.
        warehouse: Virtual warehouse that runs loads. Required.
        role: Role to use (default: the user's).
        stage: Named internal stage in the schema that Skippr PUTs Parquet files to (created if absent). Default: _skippr_stage.
        endpoint: URL of the account when it is not https://<account>.snowflakecomputing.com (private link, tests).
    """

    _role = "data_sink"
    _kind = "Snowflake"
    _secrets = ("password", "private_key_passphrase",)

    def __init__(
        self,
        *,
        account: Optional[Union[str, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        private_key_file: Optional[Union[str, EnvRef]] = None,
        private_key_passphrase: Optional[Union[str, EnvRef]] = None,
        database: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
        warehouse: Optional[Union[str, EnvRef]] = None,
        role: Optional[Union[str, EnvRef]] = None,
        stage: Optional[Union[str, EnvRef]] = None,
        endpoint: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("account", account),
            ("user", user),
            ("password", password),
            ("private_key_file", private_key_file),
            ("private_key_passphrase", private_key_passphrase),
            ("database", database),
            ("schema", schema),
            ("warehouse", warehouse),
            ("role", role),
            ("stage", stage),
            ("endpoint", endpoint),
        )


class DataSinkStdout(Connector):
    """Standard output data sink. Prints each record as one JSON line."""

    _role = "data_sink"
    _kind = "Stdout"

    def __init__(
        self,
    ) -> None:
        super().__init__(
        )


class DataSinkSynapse(Connector):
    """Azure Synapse Analytics data sink. Loads tables into a Synapse SQL pool.

    Args:
        host: SQL endpoint host name. Required.
        port: SQL endpoint port. Default: 1433.
        user: User to log in as. Required.
        password: Password of the user. Secret: prefer an EnvRef.
        database: SQL pool database. Required.
        schema: Schema the tables are created in. Default: dbo.
        encrypt: Encrypt the connection (TLS); false only for tests. Default: true.
        storage_account: Storage account whose container Skippr stages Parquet files in. Required.
        storage_container: Blob container the files are staged in. Required.
        storage_account_key: Key of the storage account: Skippr uploads with it and COPY INTO reads with it. Required. Secret: prefer an EnvRef.
        storage_endpoint: Blob service URL, for tests and private endpoints (default: https://<storage_account>.blob.core.windows.net).
        distribution: How the tables Skippr creates are distributed: round_robin, or hash (tables loaded with write_mode merge by hash of their first key column, others round_robin). Default: round_robin. One of round_robin, hash.
    """

    _role = "data_sink"
    _kind = "Synapse"
    _secrets = ("password", "storage_account_key",)

    def __init__(
        self,
        *,
        host: Optional[Union[str, EnvRef]] = None,
        port: Optional[Union[int, EnvRef]] = None,
        user: Optional[Union[str, EnvRef]] = None,
        password: Optional[Union[str, EnvRef]] = None,
        database: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
        encrypt: Optional[Union[bool, EnvRef]] = None,
        storage_account: Optional[Union[str, EnvRef]] = None,
        storage_container: Optional[Union[str, EnvRef]] = None,
        storage_account_key: Optional[Union[str, EnvRef]] = None,
        storage_endpoint: Optional[Union[str, EnvRef]] = None,
        distribution: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("host", host),
            ("port", port),
            ("user", user),
            ("password", password),
            ("database", database),
            ("schema", schema),
            ("encrypt", encrypt),
            ("storage_account", storage_account),
            ("storage_container", storage_container),
            ("storage_account_key", storage_account_key),
            ("storage_endpoint", storage_endpoint),
            ("distribution", distribution),
        )


class SchemaSinkAthenaIceberg(Connector):
    """Amazon Athena Iceberg schema sink. Keeps the Iceberg table schemas in Glue in step.

    Args:
        s3_bucket: S3 bucket the files are written to. Required.
        s3_prefix: Key prefix inside the bucket, without a trailing slash.
        athena_workgroup_name: Athena workgroup that runs queries. Required.
        athena_results_s3_bucket: S3 bucket where Athena writes query results. Required.
        region: AWS region (default: from the AWS SDK's region chain).
        s3_endpoint: S3 endpoint URL, for S3-compatible stores (default: AWS).
        glue_database_name: Glue database that holds the tables. Required.
        glue_endpoint: Glue endpoint URL (default: AWS).
    """

    _role = "schema_sink"
    _kind = "AthenaIceberg"

    def __init__(
        self,
        *,
        s3_bucket: Optional[Union[str, EnvRef]] = None,
        s3_prefix: Optional[Union[str, EnvRef]] = None,
        athena_workgroup_name: Optional[Union[str, EnvRef]] = None,
        athena_results_s3_bucket: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
        s3_endpoint: Optional[Union[str, EnvRef]] = None,
        glue_database_name: Optional[Union[str, EnvRef]] = None,
        glue_endpoint: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("s3_bucket", s3_bucket),
            ("s3_prefix", s3_prefix),
            ("athena_workgroup_name", athena_workgroup_name),
            ("athena_results_s3_bucket", athena_results_s3_bucket),
            ("region", region),
            ("s3_endpoint", s3_endpoint),
            ("glue_database_name", glue_database_name),
            ("glue_endpoint", glue_endpoint),
        )


class SchemaSinkDuckDB(Connector):
    """DuckDB schema sink. Keeps DuckDB table definitions in step with source schemas.

    Args:
        path: DuckDB database file (created if missing). Required.
        schema: Schema the tables are created in. Default: main.
    """

    _role = "schema_sink"
    _kind = "DuckDB"

    def __init__(
        self,
        *,
        path: Optional[Union[str, EnvRef]] = None,
        schema: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("path", path),
            ("schema", schema),
        )


class SchemaSinkGlue(Connector):
    """AWS Glue Data Catalog schema sink. Keeps Glue tables, columns and partitions in step.

    Args:
        s3_bucket: S3 bucket the files are written to. Required.
        s3_prefix: Key prefix inside the bucket, without a trailing slash.
        athena_workgroup_name: Athena workgroup that runs queries. Required.
        athena_results_s3_bucket: S3 bucket where Athena writes query results. Required.
        region: AWS region (default: from the AWS SDK's region chain).
        s3_endpoint: S3 endpoint URL, for S3-compatible stores (default: AWS).
        glue_database_name: Glue database that holds the tables. Required.
        glue_endpoint: Glue endpoint URL (default: AWS).
    """

    _role = "schema_sink"
    _kind = "Glue"

    def __init__(
        self,
        *,
        s3_bucket: Optional[Union[str, EnvRef]] = None,
        s3_prefix: Optional[Union[str, EnvRef]] = None,
        athena_workgroup_name: Optional[Union[str, EnvRef]] = None,
        athena_results_s3_bucket: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
        s3_endpoint: Optional[Union[str, EnvRef]] = None,
        glue_database_name: Optional[Union[str, EnvRef]] = None,
        glue_endpoint: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("s3_bucket", s3_bucket),
            ("s3_prefix", s3_prefix),
            ("athena_workgroup_name", athena_workgroup_name),
            ("athena_results_s3_bucket", athena_results_s3_bucket),
            ("region", region),
            ("s3_endpoint", s3_endpoint),
            ("glue_database_name", glue_database_name),
            ("glue_endpoint", glue_endpoint),
        )


class SchemaSinkSkipprLake(Connector):
    """SkipprLake schema sink. Keeps SkipprLake table schemas in step.

    Args:
        warehouse: Warehouse location: a local folder or s3://bucket/path. Required.
        catalog_uri: JDBC URL of the Iceberg catalog (default: an embedded catalog in the warehouse).
        catalog_user: User of the catalog database.
        catalog_password: Password of the catalog database. Secret: prefer an EnvRef.
        namespace: Iceberg namespace of the tables. Default: skippr.
        target_file_size_mb: Target size of data files, in MiB. Default: 128.
        compact: Compact small files after each commit. Default: false.
        s3_endpoint: S3 endpoint URL, for S3-compatible stores.
        region: AWS region (default: from the AWS SDK's region chain).
    """

    _role = "schema_sink"
    _kind = "SkipprLake"
    _secrets = ("catalog_password",)

    def __init__(
        self,
        *,
        warehouse: Optional[Union[str, EnvRef]] = None,
        catalog_uri: Optional[Union[str, EnvRef]] = None,
        catalog_user: Optional[Union[str, EnvRef]] = None,
        catalog_password: Optional[Union[str, EnvRef]] = None,
        namespace: Optional[Union[str, EnvRef]] = None,
        target_file_size_mb: Optional[Union[int, EnvRef]] = None,
        compact: Optional[Union[bool, EnvRef]] = None,
        s3_endpoint: Optional[Union[str, EnvRef]] = None,
        region: Optional[Union[str, EnvRef]] = None,
    ) -> None:
        super().__init__(
            ("warehouse", warehouse),
            ("catalog_uri", catalog_uri),
            ("catalog_user", catalog_user),
            ("catalog_password", catalog_password),
            ("namespace", namespace),
            ("target_file_size_mb", target_file_size_mb),
            ("compact", compact),
            ("s3_endpoint", s3_endpoint),
            ("region", region),
        )
