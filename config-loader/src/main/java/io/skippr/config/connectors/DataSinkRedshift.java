// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Amazon Redshift data sink. Loads tables into Redshift via staged files and COPY. */
public final class DataSinkRedshift extends Connector<DataSinkRedshift> {
    public DataSinkRedshift() {
        super(Role.DATA_SINK, "Redshift");
    }

    /** Cluster endpoint host name. Required. */
    public DataSinkRedshift host(String value) {
        return set("host", value);
    }

    /** Cluster endpoint host name. Required. From an environment variable. */
    public DataSinkRedshift host(EnvRef value) {
        return set("host", value);
    }

    /** Cluster port. Default: 5439. */
    public DataSinkRedshift port(long value) {
        return set("port", value);
    }

    /** Cluster port. Default: 5439. From an environment variable. */
    public DataSinkRedshift port(EnvRef value) {
        return set("port", value);
    }

    /** User to log in as. Required. */
    public DataSinkRedshift user(String value) {
        return set("user", value);
    }

    /** User to log in as. Required. From an environment variable. */
    public DataSinkRedshift user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. */
    public DataSinkRedshift password(String value) {
        return set("password", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkRedshift password(EnvRef value) {
        return set("password", value);
    }

    /** Database to connect to. Required. */
    public DataSinkRedshift database(String value) {
        return set("database", value);
    }

    /** Database to connect to. Required. From an environment variable. */
    public DataSinkRedshift database(EnvRef value) {
        return set("database", value);
    }

    /** Schema the tables are created in. Default: public. */
    public DataSinkRedshift schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: public. From an environment variable. */
    public DataSinkRedshift schema(EnvRef value) {
        return set("schema", value);
    }

    /** Connect with TLS. Default: true. */
    public DataSinkRedshift ssl(boolean value) {
        return set("ssl", value);
    }

    /** Connect with TLS. Default: true. From an environment variable. */
    public DataSinkRedshift ssl(EnvRef value) {
        return set("ssl", value);
    }

    /** S3 bucket for staging files. Required. */
    public DataSinkRedshift s3Bucket(String value) {
        return set("s3_bucket", value);
    }

    /** S3 bucket for staging files. Required. From an environment variable. */
    public DataSinkRedshift s3Bucket(EnvRef value) {
        return set("s3_bucket", value);
    }

    /** IAM role ARN that COPY assumes (default: COPY signs with the AWS credentials Skippr stages with). */
    public DataSinkRedshift iamRole(String value) {
        return set("iam_role", value);
    }

    /** IAM role ARN that COPY assumes (default: COPY signs with the AWS credentials Skippr stages with). From an environment variable. */
    public DataSinkRedshift iamRole(EnvRef value) {
        return set("iam_role", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). */
    public DataSinkRedshift region(String value) {
        return set("region", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). From an environment variable. */
    public DataSinkRedshift region(EnvRef value) {
        return set("region", value);
    }

    /** Endpoint URL of the staging bucket's store, for Skippr's own S3 requests (default: AWS); COPY reads the s3:// URL from AWS. */
    public DataSinkRedshift endpoint(String value) {
        return set("endpoint", value);
    }

    /** Endpoint URL of the staging bucket's store, for Skippr's own S3 requests (default: AWS); COPY reads the s3:// URL from AWS. From an environment variable. */
    public DataSinkRedshift endpoint(EnvRef value) {
        return set("endpoint", value);
    }

    /** Address the bucket in the path, not the host name. Default: false. */
    public DataSinkRedshift pathStyleAccess(boolean value) {
        return set("path_style_access", value);
    }

    /** Address the bucket in the path, not the host name. Default: false. From an environment variable. */
    public DataSinkRedshift pathStyleAccess(EnvRef value) {
        return set("path_style_access", value);
    }
}
