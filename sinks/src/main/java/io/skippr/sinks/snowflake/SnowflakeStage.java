package io.skippr.sinks.snowflake;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.sinks.staged.Stage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A named internal stage in the target schema ({@code stage}, default {@value #DEFAULT_NAME}),
 * created if absent. Files go in with the driver's {@code PUT} (it uploads them itself, unchanged:
 * {@code AUTO_COMPRESS = FALSE}), are listed with {@code LIST} and removed with {@code REMOVE}.
 * Internal stages keep no user metadata, so a file put with metadata lies under a folder that holds
 * it ({@code <folder>/__meta/<base64url of its JSON, in segments of 200>/<file>}); {@link #list}
 * and {@link #metadata} read it from there, and callers see the file at its own key. Each call logs
 * in once.
 */
final class SnowflakeStage implements Stage {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "__meta/";
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(SnowflakeStage.class);

    static final String DEFAULT_NAME = "_skippr_stage";

    private final SnowflakeLogin login;
    private final String schema;
    private final String name;

    SnowflakeStage(SnowflakeLogin login, String schema, String name) {
        this.login = login;
        this.schema = schema;
        this.name = name;
    }

    /** The stage, as statements name it. */
    String ref() {
        return "@" + SnowflakeDialect.QUOTE.qualified(schema, name);
    }

    @Override
    public void put(String key, Path file, Map<String, String> metadata) throws IOException {
        Path dir = Files.createTempDirectory("skippr-put-");
        Path named = dir.resolve(fileName(key));
        try {
            try {
                Files.createLink(named, file);
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(file, named, StandardCopyOption.REPLACE_EXISTING);
            }
            upload(key, named, metadata);
        } finally {
            Files.deleteIfExists(named);
            Files.deleteIfExists(dir);
        }
    }

    @Override
    public void put(String key, byte[] bytes, Map<String, String> metadata) throws IOException {
        Path dir = Files.createTempDirectory("skippr-put-");
        Path named = dir.resolve(fileName(key));
        try {
            Files.write(named, bytes);
            upload(key, named, metadata);
        } finally {
            Files.deleteIfExists(named);
            Files.deleteIfExists(dir);
        }
    }

    private void upload(String key, Path local, Map<String, String> metadata) throws IOException {
        String folder = physicalFolder(key, metadata);
        String put =
                "PUT "
                        + SnowflakeDialect.QUOTE.literal("file://" + local.toAbsolutePath())
                        + " "
                        + SnowflakeDialect.QUOTE.literal(ref() + "/" + folder)
                        + " AUTO_COMPRESS = FALSE OVERWRITE = TRUE";
        DriverTransferLoop.hold();
        for (int attempt = 1; ; attempt++) {
            try (Connection c = login.connect();
                    Statement st = c.createStatement()) {
                try {
                    st.execute(put);
                } catch (SQLException e) {
                    if (e.getErrorCode() != SnowflakeDialect.OBJECT_DOES_NOT_EXIST) {
                        throw e;
                    }
                    st.execute("CREATE STAGE IF NOT EXISTS " + ref().substring(1));
                    st.execute(put);
                }
                return;
            } catch (SQLException e) {
                if (attempt >= UPLOAD_ATTEMPTS || !transferFailed(e)) {
                    throw failure("uploading", key, e);
                }
                LOG.warn(
                        "Uploading {} failed (attempt {} of {}), trying again: {}",
                        url(key),
                        attempt,
                        UPLOAD_ATTEMPTS,
                        e.getMessage());
                java.util.concurrent.locks.LockSupport.parkNanos(attempt * 1_000_000_000L);
            }
        }
    }

    /** PUTs per file: the driver retries each upload itself, and a PUT is safe to repeat. */
    static final int UPLOAD_ATTEMPTS = 3;

    /**
     * The driver's own upload to the stage's storage failed (not a statement Snowflake refused).
     */
    private static boolean transferFailed(SQLException e) {
        return "XX000".equals(e.getSQLState())
                || e.getMessage() != null && e.getMessage().contains("file operation error");
    }

    /** The folder {@code key}'s file goes in: its own, or one below it that holds its metadata. */
    private static String physicalFolder(String key, Map<String, String> metadata)
            throws IOException {
        int slash = key.lastIndexOf('/');
        String folder = slash < 0 ? "" : key.substring(0, slash + 1);
        if (metadata.isEmpty()) {
            return folder;
        }
        String json = JSON.writeValueAsString(new TreeMap<>(metadata));
        String encoded =
                Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder(folder).append(META);
        for (int i = 0; i < encoded.length(); i += META_SEGMENT) {
            out.append(encoded, i, Math.min(encoded.length(), i + META_SEGMENT)).append('/');
        }
        return out.toString();
    }

    /**
     * Characters of encoded metadata per folder name: stores that keep a stage as files (the test
     * S3Proxy) refuse path segments over 255 bytes.
     */
    static final int META_SEGMENT = 200;

    private static String fileName(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return new ArrayList<>(listed(prefix).keySet());
    }

    /** The files under {@code prefix}: each one's key and metadata (empty if it has none). */
    private Map<String, Map<String, String>> listed(String prefix) throws IOException {
        Map<String, Map<String, String>> files = new TreeMap<>();
        try (Connection c = login.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("LIST " + literalPath(prefix))) {
            while (rs.next()) {
                String listed = rs.getString(1);
                // LIST names start with the stage's own name
                String path = listed.substring(listed.indexOf('/') + 1);
                if (!path.startsWith(prefix)) {
                    continue;
                }
                int meta = path.lastIndexOf(META);
                if (meta >= 0) {
                    int end = path.lastIndexOf('/');
                    String encoded = path.substring(meta + META.length(), end).replace("/", "");
                    String json =
                            new String(
                                    Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
                    files.put(
                            path.substring(0, meta) + path.substring(end + 1),
                            JSON.readValue(
                                    json, new TypeReference<LinkedHashMap<String, String>>() {}));
                } else {
                    files.put(path, Map.of());
                }
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == SnowflakeDialect.OBJECT_DOES_NOT_EXIST) {
                return files; // no stage yet: nothing staged
            }
            throw failure("listing", prefix, e);
        }
        return files;
    }

    private String literalPath(String key) {
        return SnowflakeDialect.QUOTE.literal(ref() + "/" + key);
    }

    @Override
    public Map<String, String> metadata(String key) throws IOException {
        int slash = key.lastIndexOf('/');
        return listed(slash < 0 ? "" : key.substring(0, slash + 1)).get(key);
    }

    @Override
    public void delete(List<String> keys) throws IOException {
        if (keys.isEmpty()) {
            return;
        }
        try (Connection c = login.connect();
                Statement st = c.createStatement()) {
            Map<String, Map<String, String>> found = new TreeMap<>();
            for (String key : keys) {
                int slash = key.lastIndexOf('/');
                String folder = slash < 0 ? "" : key.substring(0, slash + 1);
                if (!found.containsKey(key)) {
                    found.putAll(listed(folder));
                }
                Map<String, String> metadata = found.get(key);
                if (metadata != null) {
                    st.execute(
                            "REMOVE " + literalPath(physicalFolder(key, metadata) + fileName(key)));
                }
            }
        } catch (SQLException e) {
            throw failure("deleting", keys.get(0), e);
        }
    }

    @Override
    public String url(String key) {
        return ref() + "/" + key;
    }

    private IOException failure(String doing, String key, SQLException e) {
        return new IOException(
                doing
                        + " "
                        + url(key)
                        + " failed: "
                        + e.getMessage()
                        + " (SQL state "
                        + e.getSQLState()
                        + ", "
                        + login
                        + ")",
                e);
    }

    @Override
    public String toString() {
        return "Snowflake stage " + ref() + " of " + login;
    }
}
