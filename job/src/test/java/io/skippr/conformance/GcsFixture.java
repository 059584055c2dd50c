package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.gcs.FakeGcsServer;
import io.skippr.sinks.gcs.GcsFileStore;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The GCS sink against Skippr's fake of the GCS JSON API ({@link FakeGcsServer} from the sinks
 * module's test-jar, in the test JVM, its objects on disk, reached over HTTP on 127.0.0.1, also by
 * {@code skipprd} processes): no GCS emulator can be had here. A bucket per fixture; the plain-http
 * local endpoint means no credentials, and closing checks that none were sent during the test.
 */
final class GcsFixture extends FileStoreFixture {
    private static final String PREFIX = "lake/raw";

    private final FakeGcsServer server = FakeGcsServer.get();
    private final String bucket = "skippr-kit-" + UUID.randomUUID().toString().substring(0, 8);

    GcsFixture(String format) throws Exception {
        super(format);
        server.resetCounters(); // one fixture per test: count only this test's requests
        server.createBucket(bucket);
    }

    @Override
    public String kind() {
        return "GCS";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    GCS:\n      bucket: "
                + bucket
                + "\n      prefix: "
                + PREFIX
                + "\n      endpoint: "
                + server.endpoint()
                + "\n      format: "
                + format
                + "\n";
    }

    @Override
    FileStore store(Path dir) {
        return new GcsFileStore(bucket, PREFIX, null, null, server.endpoint());
    }

    @Override
    public void close() {
        if (server.requestsWithCredentials() > 0) {
            throw new IllegalStateException(
                    server.requestsWithCredentials()
                            + " requests to the fake GCS server carried credentials");
        }
    }
}
