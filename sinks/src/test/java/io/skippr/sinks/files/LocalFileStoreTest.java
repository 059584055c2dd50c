package io.skippr.sinks.files;

/** The local folder store. */
class LocalFileStoreTest extends FileStoreContract {
    private int roots;

    @Override
    protected FileStore open() {
        return new LocalFileStore(local.resolve("root-" + roots++));
    }
}
