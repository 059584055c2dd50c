package io.skippr.sinks.gcs;

import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreSinkCase;

/**
 * A pipeline into Skippr's fake of the GCS JSON API ({@link FakeGcsServer}, one per JVM, reached
 * over HTTP by the MiniCluster's tasks): every row lands once through a failure, and only committed
 * files are visible.
 */
class GcsSinkITCase extends FileStoreSinkCase {
    private static final String BUCKET = "skippr-it";

    @Override
    protected FileStore freshStore() throws Exception {
        FakeGcsServer server = FakeGcsServer.get();
        server.createBucket(BUCKET);
        return new GcsFileStore(BUCKET, FakeGcsServer.freshPrefix(), null, null, server.endpoint());
    }
}
