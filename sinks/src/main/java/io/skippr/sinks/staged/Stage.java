package io.skippr.sinks.staged;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A warehouse's stage: where Skippr puts files for the warehouse to load (an S3 bucket for
 * Redshift, a named internal stage for Snowflake). Serializable settings; each call opens what it
 * needs.
 */
public interface Stage extends Serializable {
    /** Uploads {@code file} as {@code key}, with user metadata, replacing an object there. */
    void put(String key, Path file, Map<String, String> metadata) throws IOException;

    /** Uploads {@code bytes} as {@code key}, with user metadata, replacing an object there. */
    void put(String key, byte[] bytes, Map<String, String> metadata) throws IOException;

    /** The keys that start with {@code prefix}, sorted. */
    List<String> list(String prefix) throws IOException;

    /** The user metadata of {@code key}; null when there is no such object. */
    Map<String, String> metadata(String key) throws IOException;

    /** Deletes {@code keys}; a key already gone is no error. */
    void delete(List<String> keys) throws IOException;

    /** The address the warehouse loads {@code key} from ({@code s3://bucket/key}). */
    String url(String key);
}
