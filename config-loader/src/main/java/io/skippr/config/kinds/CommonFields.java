package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;

/** Fields shared by a family of kinds, declared once for the family. */
final class CommonFields {
    static final Field FORMAT =
            Field.choice("format", "File format of the written files", "parquet", "jsonl", "csv")
                    .defaultsTo("parquet");

    static final Field COMPRESSION =
            Field.choice(
                    "compression",
                    "Compression codec (default: snappy for parquet, none for jsonl and csv)",
                    "snappy",
                    "zstd",
                    "gzip",
                    "none");

    static final Field ROLL_SIZE_MB =
            Field.integer("roll_size_mb", "Start a new file once one holds this many MiB")
                    .defaultsTo(128);

    static final Field ROLL_INTERVAL_SECONDS =
            Field.integer(
                    "roll_interval_seconds",
                    "Start a new file once one has been open this long (default: files roll only"
                            + " at checkpoints and by size)");

    static final Field SSLMODE =
            Field.choice(
                            "sslmode",
                            "TLS mode of the connection, as in libpq",
                            "disable",
                            "allow",
                            "prefer",
                            "require",
                            "verify-ca",
                            "verify-full")
                    .defaultsTo("prefer");

    static final Field SSLROOTCERT =
            Field.path(
                    "sslrootcert",
                    "CA certificate file that sslmode verify-ca and verify-full check the server"
                            + " against (default: ~/.postgresql/root.crt, as in libpq)");

    static final Field AWS_REGION =
            Field.string("region", "AWS region (default: from the AWS SDK's region chain)");

    static final Field S3_BUCKET =
            Field.string("s3_bucket", "S3 bucket the files are written to").required();

    static final Field S3_PREFIX =
            Field.string("s3_prefix", "Key prefix inside the bucket, without a trailing slash");

    private CommonFields() {}
}
