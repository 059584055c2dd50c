package io.skippr.sinks.s3;

import io.skippr.sinks.aws.AwsClients;
import java.io.Serializable;
import java.net.URI;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * How to reach S3 or an S3-compatible store: region, endpoint, addressing style and credentials.
 * Built on the client and shipped to tasks, so it holds settings only; {@link #open} builds the SDK
 * client where it is used. Without explicit keys the SDK's default credential chain applies
 * (environment, profile, container or instance role), as the S3 kinds document.
 */
public final class S3Connection implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String region;
    private final String endpoint;
    private final boolean pathStyleAccess;
    private final String accessKeyId;
    private final String secretAccessKey;

    private S3Connection(
            String region,
            String endpoint,
            boolean pathStyleAccess,
            String accessKeyId,
            String secretAccessKey) {
        this.region = blankToNull(region);
        this.endpoint = blankToNull(endpoint);
        this.pathStyleAccess = pathStyleAccess;
        this.accessKeyId = accessKeyId;
        this.secretAccessKey = secretAccessKey;
        if (this.endpoint != null) {
            URI uri = URI.create(this.endpoint);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "S3 endpoint '"
                                + this.endpoint
                                + "' is not a URL such as https://s3.example.com:9000");
            }
        }
    }

    /**
     * A connection with the SDK's default credential chain.
     *
     * @param region the AWS region, or null for the SDK's region chain (us-east-1 when it finds
     *     none, or when an endpoint is given)
     * @param endpoint the endpoint URL of an S3-compatible store, or null for AWS
     */
    public static S3Connection of(String region, String endpoint, boolean pathStyleAccess) {
        return new S3Connection(region, endpoint, pathStyleAccess, null, null);
    }

    /** The same connection signing with these keys instead of the default credential chain. */
    public S3Connection withKeys(String accessKeyId, String secretAccessKey) {
        return new S3Connection(region, endpoint, pathStyleAccess, accessKeyId, secretAccessKey);
    }

    /** The endpoint URL, or null for AWS. */
    public String endpoint() {
        return endpoint;
    }

    /** A new client; the caller closes it. */
    public S3Client open() {
        return AwsClients.configure(
                        S3Client.builder()
                                // The SDK's optional CRC checksums on uploads break
                                // CompleteMultipartUpload unless every part names its algorithm,
                                // and S3-compatible stores reject them; SigV4 (plain HTTP) or TLS
                                // already protect each request's payload.
                                .requestChecksumCalculation(
                                        RequestChecksumCalculation.WHEN_REQUIRED)
                                .forcePathStyle(pathStyleAccess)
                                // follows a bucket to its region when ours is a guess
                                .crossRegionAccessEnabled(endpoint == null),
                        region,
                        endpoint,
                        accessKeyId,
                        secretAccessKey)
                .build();
    }

    /** Never shows the keys. */
    @Override
    public String toString() {
        return "S3Connection{region="
                + (region == null ? "(default chain)" : region)
                + ", endpoint="
                + (endpoint == null ? "(AWS)" : endpoint)
                + ", pathStyleAccess="
                + pathStyleAccess
                + ", credentials="
                + (accessKeyId == null ? "(default chain)" : "(static keys)")
                + "}";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
