package io.skippr.sinks.files;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a file sink's files and commit records live: a local folder, an S3 bucket, an Azure
 * container, a GCS bucket, an SFTP server. Keys are {@code /}-separated paths relative to the
 * sink's root (its folder, or bucket and prefix), such as {@code
 * orders/p-000001-000-000000-000000.parquet} or {@code _skippr/commits/<key>.json}; they never
 * start with {@code /}.
 *
 * <p>Files reach a store in two phases (DESIGN §6). A writer finishes a file locally and calls
 * {@link #stage} at pre-commit: the bytes become durable in the store (a multipart upload not
 * completed, staged blocks, a temporary object or name) but nothing is visible under the key. When
 * the checkpoint completes, the committer calls {@link #publish} with the {@link Staged} handle,
 * possibly in another process after a restore: the file appears under its key, whole. Publishing
 * twice is a no-op. Readers of the store never see a partial file.
 *
 * <p>A store is built on the JobManager/client and shipped to every task, so it is serializable;
 * clients and connections are opened lazily and are {@code transient}.
 */
public interface FileStore extends Serializable, AutoCloseable {
    /** The folder (or key prefix) under a store's root where staged files wait unpublished. */
    String STAGING = ".skippr-staging";

    /** A user's key prefix as a store keeps it: no leading or trailing slashes; "" for none. */
    static String prefix(String prefix) {
        return prefix == null ? "" : prefix.replaceAll("^/+|/+$", "");
    }

    /** Where this is, for messages and docs: {@code s3://bucket/prefix}, {@code /data/out}. */
    String describe();

    /**
     * Makes a finished local file durable in the store, invisible until published under {@code
     * key}. The local file may be deleted afterwards (the store does so when it copied it).
     *
     * @return everything {@link #publish} needs, even in another process
     */
    Staged stage(Path local, String key) throws IOException;

    /**
     * Makes a staged file visible under its key, atomically. Returns false, and changes nothing,
     * when the key already holds it (a replayed commit). Fails with a clear message when neither
     * the staged data nor the published file exists. A store that stages a file as a file of its
     * own, under a temporary name, publishes it through {@link TemporaryNamePublish}.
     */
    boolean publish(Staged staged) throws IOException;

    /** Drops staged data that will never be published; nothing happens if it is already gone. */
    void discard(Staged staged) throws IOException;

    /**
     * Drops every staged upload of {@code owner}'s files ({@link #owner}) left under this store's
     * root by runs that never published it (a crash between stage and publish of a bounded run),
     * and nothing of other pipelines that share the root. Called before a bounded run starts; never
     * while another run of the same pipeline and sink may be in flight.
     */
    void discardStaged(String owner) throws IOException;

    /**
     * The pipeline a file belongs to: its name up to the first {@code -}, as sinks name files
     * {@code <pipeline>-<run>-<subtask>-<epoch>-<seq>.<ext>} with the pipeline in snake_case.
     */
    static String owner(String key) {
        String name = key.substring(key.lastIndexOf('/') + 1);
        int dash = name.indexOf('-');
        return dash < 0 ? name : name.substring(0, dash);
    }

    /** Writes a small object atomically: a reader sees all of it or nothing. Replaces. */
    void put(String key, byte[] bytes) throws IOException;

    /** The object under {@code key}; {@link java.nio.file.NoSuchFileException} if absent. */
    byte[] get(String key) throws IOException;

    boolean exists(String key) throws IOException;

    /** Every published key that starts with {@code prefix}, at any depth, in sorted order. */
    List<String> list(String prefix) throws IOException;

    /** Deletes a published object; nothing happens if it is absent. */
    void delete(String key) throws IOException;

    /**
     * Copies a published object to a local file, for readers such as {@code skipprd query} and the
     * conformance kit.
     */
    void download(String key, Path local) throws IOException;

    /**
     * The local folder where writers finish files before {@link #stage} takes them: the system's
     * temporary folder, or the store's own staging folder when the store is local (so staging is a
     * no-op there).
     */
    default Path localStaging() {
        return Path.of(System.getProperty("java.io.tmpdir"), "skippr-staging");
    }

    /** Closes clients and connections; the store opens them again if used afterwards. */
    @Override
    default void close() throws IOException {}

    /**
     * A staged file: its key and the store's own token (a temporary path, an upload id with part
     * ETags, a list of block ids), as text so it serializes anywhere.
     */
    record Staged(String key, String token) implements Serializable {}
}
