package io.skippr.sinks.gcs;

import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreContract;

/**
 * The store contract once more on google-cloud-nio's in-memory double of the storage service
 * ({@link LocalStorageHelper}, no HTTP): Google's own model of the service's semantics, a second
 * opinion on {@link FakeGcsServer}'s. One double per JVM; a prefix per store.
 */
class GcsFileStoreOnLocalStorageHelperTest extends FileStoreContract {
    @Override
    protected FileStore open() {
        return new GcsFileStore(
                "skippr-test", FakeGcsServer.freshPrefix(), LocalStorageHelper.getOptions());
    }
}
