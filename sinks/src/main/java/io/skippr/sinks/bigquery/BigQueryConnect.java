package io.skippr.sinks.bigquery;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.auth.Credentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.bigquery.BigQuery;
import com.google.cloud.bigquery.BigQueryOptions;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteClient;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How to reach one BigQuery dataset: project, dataset, location, credentials (a service account key
 * file, or the application default credentials) and, for tests and private endpoints, the REST
 * API's root URL and the Storage Write API's gRPC address. A plain {@code http} endpoint is allowed
 * only on this machine and gets no credentials. Serializable: it travels with the job graph; it
 * holds the key file's path, never the key.
 *
 * @param endpoint REST root URL without a trailing slash, or null for Google
 * @param writeEndpoint {@code http://host:port} (plain gRPC, this machine only) or {@code
 *     host:port} (TLS) of the Storage Write API, or null for Google
 */
public record BigQueryConnect(
        String project,
        String dataset,
        String location,
        String credentialsFile,
        String endpoint,
        String writeEndpoint)
        implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/bigquery");

    /** Checks the endpoints; a message says what is wrong without echoing more than the URL. */
    public static BigQueryConnect of(
            String project,
            String dataset,
            String location,
            String credentialsFile,
            String endpoint,
            String writeEndpoint) {
        String rest = endpoint == null || endpoint.isBlank() ? null : restUrl(endpoint.trim());
        String write =
                writeEndpoint == null || writeEndpoint.isBlank()
                        ? null
                        : writeAddress(writeEndpoint.trim());
        return new BigQueryConnect(project, dataset, location, credentialsFile, rest, write);
    }

    private static String restUrl(String endpoint) {
        String url = endpoint.replaceAll("/+$", "");
        URI uri = uri(url);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (uri.getHost() == null || !Set.of("http", "https").contains(scheme)) {
            throw new IllegalArgumentException(
                    "endpoint must be an http(s) URL with a host, such as https://bigquery.example.com");
        }
        local(uri, scheme);
        return url;
    }

    private static String writeAddress(String endpoint) {
        if (!endpoint.contains("://")) {
            uri("https://" + endpoint);
            return endpoint;
        }
        URI uri = uri(endpoint.replaceAll("/+$", ""));
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (uri.getHost() == null
                || uri.getPort() < 0
                || !Set.of("http", "https").contains(scheme)) {
            throw new IllegalArgumentException(
                    "write_endpoint must be host:port, or http(s)://host:port");
        }
        local(uri, scheme);
        return scheme + "://" + uri.getHost() + ":" + uri.getPort();
    }

    private static URI uri(String url) {
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + e.getReason());
        }
    }

    private static void local(URI uri, String scheme) {
        if (scheme.equals("http") && !LOOPBACK.contains(uri.getHost().toLowerCase())) {
            throw new IllegalArgumentException(
                    "plain http is allowed only on this machine (localhost, 127.0.0.1), where no"
                            + " credentials are sent; use https for "
                            + uri.getHost());
        }
    }

    /** Whether requests go to a plain-http test server on this machine (no credentials). */
    boolean local() {
        return endpoint != null && endpoint.startsWith("http://");
    }

    private Credentials credentials() throws IOException {
        if (local()) {
            return NoCredentials.getInstance();
        }
        if (credentialsFile != null) {
            try (InputStream in = Files.newInputStream(Path.of(credentialsFile))) {
                return GoogleCredentials.fromStream(in).createScoped(SCOPES);
            } catch (IOException e) {
                throw new IOException(
                        "cannot read the service account key file "
                                + credentialsFile
                                + ": "
                                + e.getMessage(),
                        e);
            }
        }
        try {
            return GoogleCredentials.getApplicationDefault().createScoped(SCOPES);
        } catch (IOException e) {
            throw new IOException(
                    "no application default credentials ("
                            + e.getMessage()
                            + "): set credentials_file, or GOOGLE_APPLICATION_CREDENTIALS",
                    e);
        }
    }

    /**
     * Clients by target, shared by the writers and committers of a process: each holds connections
     * and threads that a checkpoint should not pay for again.
     */
    private static final Map<BigQueryConnect, BigQuery> REST = new ConcurrentHashMap<>();

    private static final Map<BigQueryConnect, BigQueryWriteClient> WRITE =
            new ConcurrentHashMap<>();

    /** The shared client of the REST API (datasets, tables, query jobs). */
    BigQuery rest() throws IOException {
        BigQuery client = REST.get(this);
        if (client == null) {
            client = newRest();
            BigQuery raced = REST.putIfAbsent(this, client);
            client = raced == null ? client : raced;
        }
        return client;
    }

    /**
     * The shared client of the Storage Write API; callers do not close it (it lives as long as the
     * process).
     */
    BigQueryWriteClient write() throws IOException {
        synchronized (WRITE) {
            BigQueryWriteClient client = WRITE.get(this);
            if (client == null || client.isShutdown()) {
                client = newWrite();
                WRITE.put(this, client);
            }
            return client;
        }
    }

    private BigQuery newRest() throws IOException {
        BigQueryOptions.Builder options =
                BigQueryOptions.newBuilder()
                        .setProjectId(project)
                        .setLocation(location)
                        .setCredentials(credentials());
        if (endpoint != null) {
            options.setHost(endpoint);
        }
        return options.build().getService();
    }

    private BigQueryWriteClient newWrite() throws IOException {
        BigQueryWriteSettings.Builder settings = BigQueryWriteSettings.newBuilder();
        boolean plain = writeEndpoint != null && writeEndpoint.startsWith("http://");
        CredentialsProvider credentials =
                plain || local()
                        ? NoCredentialsProvider.create()
                        : FixedCredentialsProvider.create(credentials());
        settings.setCredentialsProvider(credentials);
        if (writeEndpoint != null) {
            String address = writeEndpoint.replaceFirst("^https?://", "");
            InstantiatingGrpcChannelProvider.Builder channel =
                    BigQueryWriteSettings.defaultGrpcTransportProviderBuilder()
                            .setEndpoint(address);
            if (plain) {
                channel.setChannelConfigurator(b -> b.usePlaintext());
            }
            settings.setEndpoint(address).setTransportChannelProvider(channel.build());
        }
        return BigQueryWriteClient.create(settings.build());
    }

    /** {@code projects/P/datasets/D/tables/T}, as the Storage Write API names a table. */
    String tablePath(String dataset, String table) {
        return "projects/" + project + "/datasets/" + dataset + "/tables/" + table;
    }

    @Override
    public String toString() {
        return "BigQuery project "
                + project
                + ", dataset "
                + dataset
                + " ("
                + location
                + (endpoint == null ? "" : ", " + endpoint)
                + ")";
    }
}
