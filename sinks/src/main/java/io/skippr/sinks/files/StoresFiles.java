package io.skippr.sinks.files;

import io.skippr.core.spi.SinkContext;

/**
 * A data sink kind of the file family (LocalFile, S3, GCS, AzureBlob, SFTP): the {@link FileStore}
 * its files and commit records are in, built from its entry exactly as its sink builds it, for
 * readers of what it committed ({@code skipprd verify}).
 */
public interface StoresFiles {
    /** The store of the entry {@code context} names; it opens its client when first used. */
    FileStore files(SinkContext context);
}
