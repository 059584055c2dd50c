package io.skippr.sinks.gcs;

import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreSinkCase;

/**
 * A pipeline into google-cloud-nio's in-memory GCS double (one per JVM, shared by the MiniCluster's
 * tasks in this JVM): every row lands once through a failure, and only committed files are visible.
 */
class GcsSinkITCase extends FileStoreSinkCase {
    @Override
    protected FileStore freshStore() {
        return new GcsFileStore("skippr-it", "pipelines/out", LocalStorageHelper.getOptions());
    }
}
