package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.sinks.gcs.FakeGcsServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The GCS fixture's check that no credentials reach the fake (shared by every test of the JVM):
 * credentials sent during a fixture's test fail it when it closes; credentials an earlier test sent
 * do not fail a later fixture.
 */
class GcsFixtureTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static void sendCredentials() throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                FakeGcsServer.get().endpoint()
                                                        + "/storage/v1/b/no-such-bucket"))
                                .header("Authorization", "Bearer not-a-real-token")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(404);
    }

    @Test
    void credentialsSentDuringTheTestFailTheFixtureWhenItCloses() throws Exception {
        GcsFixture fixture = new GcsFixture("jsonl");
        sendCredentials();
        assertThatThrownBy(fixture::close)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("1 requests to the fake GCS server carried credentials");
    }

    @Test
    void credentialsSentBeforeTheTestDoNotFailALaterFixture() throws Exception {
        sendCredentials();
        assertThat(FakeGcsServer.get().requestsWithCredentials()).isPositive();
        GcsFixture fixture = new GcsFixture("jsonl");
        fixture.close();
        assertThat(FakeGcsServer.get().requestsWithCredentials()).isZero();
    }
}
