package io.skippr.sinks.aws;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * How every AWS client of Skippr's (S3, Glue) is set up: the JDK's HTTP client, a region, an
 * optional endpoint, and static keys or the SDK's default credential chain.
 */
public final class AwsClients {
    private AwsClients() {}

    /**
     * Applies these settings to {@code builder}.
     *
     * @param region the AWS region, or null for the SDK's region chain (us-east-1 when it finds
     *     none, or when an endpoint is given: compatible stores take any region in the signature)
     * @param endpoint the endpoint URL, or null for AWS
     * @param accessKeyId null for the default credential chain
     */
    public static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
            B builder, String region, String endpoint, String accessKeyId, String secretAccessKey) {
        builder.httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(region(region, endpoint));
        if (endpoint != null) {
            builder.endpointOverride(URI.create(endpoint));
        }
        if (accessKeyId != null) {
            builder.credentialsProvider(
                    StaticCredentialsProvider.create(
                            AwsBasicCredentials.create(accessKeyId, secretAccessKey)));
        }
        return builder;
    }

    private static Region region(String region, String endpoint) {
        if (region != null) {
            return Region.of(region);
        }
        if (endpoint != null) {
            return Region.US_EAST_1;
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkClientException noneFound) {
            return Region.US_EAST_1;
        }
    }
}
