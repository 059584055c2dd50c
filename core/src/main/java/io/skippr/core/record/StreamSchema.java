package io.skippr.core.record;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;

/**
 * The schema of one stream at one version. The version is a fingerprint of the columns and key, so
 * readers that discover the same schema independently agree on its version, and a changed schema (a
 * new column) always gets a new one.
 *
 * @param stream the stream's name: a table name, or a file source's stream name
 * @param columns the columns, in order
 * @param primaryKey the key column names, empty if the stream has none
 * @param cursorColumn the column whose growth marks new or changed rows, or null: its highest
 *     committed value is where the next incremental run starts
 */
public record StreamSchema(
        String stream, List<Column> columns, List<String> primaryKey, String cursorColumn) {

    public StreamSchema {
        Objects.requireNonNull(stream, "stream");
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        for (String key : primaryKey) {
            if (columns.stream().noneMatch(c -> c.name().equals(key))) {
                throw new IllegalArgumentException("key column " + key + " is not a column");
            }
        }
        if (cursorColumn != null
                && columns.stream().noneMatch(c -> c.name().equals(cursorColumn))) {
            throw new IllegalArgumentException(
                    "cursor column " + cursorColumn + " is not a column");
        }
    }

    public StreamSchema(String stream, List<Column> columns, List<String> primaryKey) {
        this(stream, columns, primaryKey, null);
    }

    /** This schema with {@code more} columns appended: the next version after an added column. */
    public StreamSchema withColumns(List<Column> more) {
        List<Column> all = new java.util.ArrayList<>(columns);
        all.addAll(more);
        return new StreamSchema(stream, all, primaryKey, cursorColumn);
    }

    private static final java.util.Map<StreamSchema, Long> VERSIONS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** The fingerprint of columns, key and cursor; computed once per distinct schema. */
    public long version() {
        Long known = VERSIONS.get(this);
        if (known != null) {
            return known;
        }
        long version = fingerprint();
        if (VERSIONS.size() < 10_000) {
            VERSIONS.put(this, version);
        }
        return version;
    }

    private long fingerprint() {
        StringBuilder text = new StringBuilder();
        for (Column c : columns) {
            text.append(c.name())
                    .append('\u0000')
                    .append(c.type())
                    .append('\u0000')
                    .append(c.nullable())
                    .append('\u0001');
        }
        text.append('\u0002').append(String.join("\u0000", primaryKey));
        text.append('\u0003').append(cursorColumn == null ? "" : cursorColumn);
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(text.toString().getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (digest[i] & 0xff);
            }
            return v;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    public int size() {
        return columns.size();
    }
}
