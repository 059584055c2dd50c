package io.skippr.sinks.glue;

import io.skippr.sinks.aws.AwsClients;
import java.io.Serializable;
import java.net.URI;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * How to reach the Glue Data Catalog: region and endpoint. Shipped to tasks, so it holds settings
 * only; {@link #open} builds the SDK client where it is used. Credentials come from the SDK's
 * default chain (environment, profile, container or instance role).
 */
public final class GlueConnection implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String region;
    private final String endpoint;
    private final String accessKeyId;
    private final String secretAccessKey;

    private GlueConnection(
            String region, String endpoint, String accessKeyId, String secretAccessKey) {
        this.region = blankToNull(region);
        this.endpoint = blankToNull(endpoint);
        this.accessKeyId = accessKeyId;
        this.secretAccessKey = secretAccessKey;
        if (this.endpoint != null) {
            URI uri = URI.create(this.endpoint);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "Glue endpoint '"
                                + this.endpoint
                                + "' is not a URL such as https://glue.eu-west-1.amazonaws.com");
            }
        }
    }

    /**
     * @param region the AWS region, or null for the SDK's region chain (us-east-1 when it finds
     *     none, or when an endpoint is given)
     * @param endpoint the endpoint URL, or null for AWS
     */
    public static GlueConnection of(String region, String endpoint) {
        return new GlueConnection(region, endpoint, null, null);
    }

    /** The same connection signing with these keys instead of the default credential chain. */
    public GlueConnection withKeys(String accessKeyId, String secretAccessKey) {
        return new GlueConnection(region, endpoint, accessKeyId, secretAccessKey);
    }

    /** The endpoint URL, or null for AWS. */
    public String endpoint() {
        return endpoint;
    }

    /** A new client; the caller closes it. */
    public GlueClient open() {
        return AwsClients.configure(
                        GlueClient.builder(), region, endpoint, accessKeyId, secretAccessKey)
                .build();
    }

    @Override
    public String toString() {
        return "GlueConnection{region="
                + (region == null ? "(default chain)" : region)
                + ", endpoint="
                + (endpoint == null ? "(AWS)" : endpoint)
                + ", credentials="
                + (accessKeyId == null ? "(default chain)" : "(static keys)")
                + "}";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
