package io.skippr.sinks.databricks.fake;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.sinks.testing.IdleConnections;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The Files API on Unity Catalog volumes: {@code /api/2.0/fs/files/Volumes/<catalog>/<schema>/
 * <volume>/<path>} ({@code PUT} with {@code overwrite}, {@code GET}, {@code HEAD}, {@code DELETE})
 * and {@code /api/2.0/fs/directories/...} ({@code PUT} creates with its parents, {@code GET} lists
 * with {@code page_size} and {@code page_token}, {@code HEAD}, {@code DELETE} of an empty one). A
 * volume is a folder of the fake's; an upload lands under a temporary name and is then moved in
 * place, so a reader never sees half a file. {@code Range} and {@code If-Unmodified-Since} are
 * refused.
 */
final class FilesApi {
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final UnityCatalog catalog;
    private final IdleConnections backing;

    FilesApi(UnityCatalog catalog, IdleConnections backing) {
        this.catalog = catalog;
        this.backing = backing;
    }

    /** A path in a volume: as written (decoded), and the file or folder it is. */
    private record Target(String path, Path file, boolean volumeRoot) {}

    Reply handle(
            String method,
            String rawPath,
            Map<String, String> query,
            Map<String, List<String>> headers,
            byte[] body)
            throws IOException, SQLException {
        boolean files = rawPath.startsWith("/api/2.0/fs/files/");
        String raw =
                rawPath.substring(
                        (files ? "/api/2.0/fs/files" : "/api/2.0/fs/directories").length());
        if (headers.containsKey("Range") || headers.containsKey("If-unmodified-since")) {
            return Reply.notImplemented("A Range or If-Unmodified-Since header");
        }
        Optional<Target> found = target(raw);
        if (found.isEmpty()) {
            return Reply.error(
                    404,
                    "NOT_FOUND",
                    "The path " + decode(raw) + " is not in a volume that exists.");
        }
        Target t = found.get();
        if (files && t.volumeRoot()) {
            return Reply.error(
                    400,
                    "INVALID_PARAMETER_VALUE",
                    "The path " + t.path() + " is not a file path.");
        }
        return files ? file(method, t, query, body) : directory(method, t, query);
    }

    private Optional<Target> target(String raw) throws SQLException {
        String trimmed = raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
        List<String> segments = new ArrayList<>();
        for (String s : trimmed.substring(trimmed.startsWith("/") ? 1 : 0).split("/", -1)) {
            segments.add(decode(s));
        }
        if (segments.size() < 4
                || !segments.get(0).equals("Volumes")
                || segments.stream()
                        .anyMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."))) {
            return Optional.empty();
        }
        Optional<Path> folder;
        Connection pg = backing.take();
        try {
            folder = catalog.findVolume(pg, segments.get(1), segments.get(2), segments.get(3));
        } finally {
            backing.giveBack(pg, true);
        }
        if (folder.isEmpty()) {
            return Optional.empty();
        }
        Path file = folder.get();
        for (String s : segments.subList(4, segments.size())) {
            file = file.resolve(s);
        }
        return Optional.of(
                new Target("/" + String.join("/", segments), file, segments.size() == 4));
    }

    private static String decode(String segment) {
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static Reply notFound(String path) {
        return Reply.error(404, "NOT_FOUND", "The file or directory " + path + " does not exist.");
    }

    private Reply file(String method, Target t, Map<String, String> query, byte[] body)
            throws IOException {
        switch (method) {
            case "PUT" -> {
                boolean overwrite = !"false".equals(query.getOrDefault("overwrite", "true"));
                if (Files.isDirectory(t.file())) {
                    return Reply.error(
                            409, "ALREADY_EXISTS", "A directory exists at " + t.path() + ".");
                }
                if (Files.exists(t.file()) && !overwrite) {
                    return Reply.error(
                            409, "ALREADY_EXISTS", "The file " + t.path() + " already exists.");
                }
                Files.createDirectories(t.file().getParent());
                Path staged = Files.createTempFile(t.file().getParent(), ".upload-", ".tmp");
                Files.write(staged, body);
                Files.move(
                        staged,
                        t.file(),
                        StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
                return Reply.empty(204);
            }
            case "GET", "HEAD" -> {
                if (!Files.isRegularFile(t.file())) {
                    return notFound(t.path());
                }
                byte[] bytes = method.equals("GET") ? Files.readAllBytes(t.file()) : null;
                Reply r = new Reply(200, new java.util.LinkedHashMap<>(), bytes);
                r.headers().put("Content-Type", "application/octet-stream");
                r.headers().put("Content-Length", Long.toString(Files.size(t.file())));
                r.headers()
                        .put(
                                "Last-Modified",
                                HTTP_DATE.format(Files.getLastModifiedTime(t.file()).toInstant()));
                return r;
            }
            case "DELETE" -> {
                if (!Files.isRegularFile(t.file())) {
                    return notFound(t.path());
                }
                Files.delete(t.file());
                return Reply.empty(204);
            }
            default -> {
                return null;
            }
        }
    }

    private Reply directory(String method, Target t, Map<String, String> query) throws IOException {
        switch (method) {
            case "PUT" -> {
                if (Files.exists(t.file()) && !Files.isDirectory(t.file())) {
                    return Reply.error(409, "ALREADY_EXISTS", "A file exists at " + t.path() + ".");
                }
                Files.createDirectories(t.file());
                return Reply.empty(204);
            }
            case "HEAD" -> {
                return Files.isDirectory(t.file()) ? Reply.empty(200) : notFound(t.path());
            }
            case "DELETE" -> {
                if (!Files.isDirectory(t.file())) {
                    return notFound(t.path());
                }
                if (t.volumeRoot()) {
                    return Reply.error(
                            400, "INVALID_PARAMETER_VALUE", "A volume's root cannot be deleted.");
                }
                try (Stream<Path> children = Files.list(t.file())) {
                    if (children.findAny().isPresent()) {
                        return Reply.error(
                                409,
                                "DIRECTORY_NOT_EMPTY",
                                "The directory " + t.path() + " is not empty.");
                    }
                }
                Files.delete(t.file());
                return Reply.empty(204);
            }
            case "GET" -> {
                if (!Files.isDirectory(t.file())) {
                    return notFound(t.path());
                }
                return list(t, query);
            }
            default -> {
                return null;
            }
        }
    }

    private Reply list(Target t, Map<String, String> query) throws IOException {
        int pageSize = Math.min(1000, Integer.parseInt(query.getOrDefault("page_size", "1000")));
        int offset =
                query.containsKey("page_token") ? Integer.parseInt(query.get("page_token")) : 0;
        Path[] children;
        try (Stream<Path> s = Files.list(t.file())) {
            children =
                    s.filter(p -> !p.getFileName().toString().startsWith(".upload-"))
                            .sorted()
                            .toArray(Path[]::new);
        }
        ObjectNode out = Reply.JSON.createObjectNode();
        ArrayNode contents = out.putArray("contents");
        for (Path p :
                Arrays.asList(children)
                        .subList(
                                Math.min(offset, children.length),
                                Math.min(offset + pageSize, children.length))) {
            ObjectNode e = contents.addObject();
            String name = p.getFileName().toString();
            e.put("path", t.path() + "/" + name);
            e.put("is_directory", Files.isDirectory(p));
            if (!Files.isDirectory(p)) {
                e.put("file_size", Files.size(p));
            }
            e.put("last_modified", Files.getLastModifiedTime(p).toMillis());
            e.put("name", name);
        }
        if (offset + pageSize < children.length) {
            out.put("next_page_token", Integer.toString(offset + pageSize));
        }
        return Reply.json(200, out);
    }
}
