package io.skippr.sinks.databricks;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.sinks.staged.Stage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stage in a Unity Catalog volume, {@code /Volumes/<catalog>/<schema>/<volume>/}, through the
 * Files API. Files have no user metadata there, so an object's metadata is kept beside it as a
 * small JSON file {@code <key>.metadata}, written before the object and removed with it.
 */
public record VolumeStage(
        DatabricksWorkspace workspace, String catalog, String schema, String volume)
        implements Stage {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String METADATA = ".metadata";

    /** The volume's folder, {@code /Volumes/c/s/v}. */
    public String root() {
        return "/Volumes/" + catalog + "/" + schema + "/" + volume;
    }

    @Override
    public void put(String key, Path file, Map<String, String> metadata) throws IOException {
        putMetadata(key, metadata);
        workspace.upload(url(key), file);
    }

    @Override
    public void put(String key, byte[] bytes, Map<String, String> metadata) throws IOException {
        putMetadata(key, metadata);
        workspace.upload(url(key), bytes);
    }

    private void putMetadata(String key, Map<String, String> metadata) throws IOException {
        if (!metadata.isEmpty()) {
            workspace.upload(url(key) + METADATA, JSON.writeValueAsBytes(metadata));
        }
    }

    /** The bytes of {@code key}; null when there is no such file. */
    byte[] get(String key) throws IOException {
        return workspace.download(url(key));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        int slash = prefix.lastIndexOf('/');
        String folder = slash < 0 ? "" : prefix.substring(0, slash);
        List<String> keys = new ArrayList<>();
        String base = root() + "/";
        for (String path : workspace.list(folder.isEmpty() ? root() : url(folder))) {
            if (!path.startsWith(base)) {
                continue;
            }
            String key = path.substring(base.length());
            if (key.startsWith(prefix) && !key.endsWith(METADATA)) {
                keys.add(key);
            }
        }
        keys.sort(null);
        return keys;
    }

    @Override
    public Map<String, String> metadata(String key) throws IOException {
        byte[] meta = workspace.download(url(key) + METADATA);
        if (meta != null) {
            Map<String, String> out = new LinkedHashMap<>();
            JSON.readTree(meta)
                    .fields()
                    .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
            if (workspace.download(url(key)) != null) {
                return out;
            }
            return null;
        }
        return workspace.download(url(key)) == null ? null : Map.of();
    }

    @Override
    public void delete(List<String> keys) throws IOException {
        List<String> folders = new ArrayList<>();
        for (String key : keys) {
            workspace.delete(url(key));
            workspace.delete(url(key) + METADATA);
            int slash = key.lastIndexOf('/');
            String folder = slash < 0 ? null : key.substring(0, slash);
            if (folder != null && !folders.contains(folder)) {
                folders.add(folder);
            }
        }
        for (String folder : folders) {
            workspace.deleteFolder(url(folder)); // only when empty
        }
    }

    @Override
    public String url(String key) {
        return root() + "/" + key;
    }

    @Override
    public String toString() {
        return "volume " + root() + " of " + workspace;
    }
}
