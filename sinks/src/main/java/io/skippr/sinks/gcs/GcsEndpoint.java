package io.skippr.sinks.gcs;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

/**
 * Where a GCS sink sends its JSON API requests, when not to Google ({@code
 * https://storage.googleapis.com}), and whether credentials may go there. An {@code https} endpoint
 * (a private endpoint, a TLS emulator) gets the same credentials as Google. A plain {@code http}
 * endpoint is allowed only on this machine ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}),
 * for emulators and tests, and gets no credentials at all; any other {@code http} endpoint would
 * carry a token in clear text and is refused.
 *
 * @param url scheme, host and optional port, without a trailing slash
 * @param local whether this is plain HTTP on this machine (no credentials are sent)
 */
record GcsEndpoint(String url, boolean local) implements Serializable {
    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");

    /**
     * @param endpoint the {@code endpoint} field, or null for Google
     * @return null for Google
     * @throws IllegalArgumentException what is wrong with the URL, without echoing more than it
     */
    static GcsEndpoint parse(String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            return null;
        }
        String url = endpoint.trim().replaceAll("/+$", "");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (uri.getHost() == null || !Set.of("http", "https").contains(scheme)) {
            throw new IllegalArgumentException(
                    "must be an http(s) URL with a host, such as https://storage.example.com");
        }
        if (!uri.getRawPath().isEmpty() || uri.getRawQuery() != null || uri.getUserInfo() != null) {
            throw new IllegalArgumentException(
                    "must be scheme, host and port only (the client adds /storage/v1/...)");
        }
        boolean loopback = LOOPBACK.contains(uri.getHost().toLowerCase());
        if (scheme.equals("http") && !loopback) {
            throw new IllegalArgumentException(
                    "plain http is allowed only on this machine (localhost, 127.0.0.1), where no"
                            + " credentials are sent; use https for "
                            + uri.getHost());
        }
        return new GcsEndpoint(url, scheme.equals("http"));
    }
}
