package io.skippr.sinks.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.core.record.CursorValues;
import io.skippr.core.record.DataType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The commit records of a file sink, under {@code root/_skippr/commits}: one JSON file per commit,
 * written atomically after the commit's files were renamed to their final names. A file counts
 * as committed when a record lists it; the cursor positions of bounded runs are kept in the same
 * records, so a position advances exactly when its data lands.
 */
public final class CommitLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    public CommitLog(Path root) {
        this.dir = root.resolve("_skippr").resolve("commits");
    }

    /** One commit: its files, and per stream the highest cursor value among them. */
    public record Commit(long run, boolean bounded, List<String> files, Map<String, Long> rows,
            Map<String, String> positions) {}

    public List<Commit> commits() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Commit> commits = new ArrayList<>();
            for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                commits.add(read(p));
            }
            commits.sort(Comparator.comparingLong(Commit::run));
            return commits;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the commit log in " + dir, e);
        }
    }

    /** The highest run number committed so far, or 0. */
    public long lastRun() {
        return commits().stream().mapToLong(Commit::run).max().orElse(0);
    }

    /** Every committed file's path, in commit order. */
    public List<String> committedFiles() {
        java.util.Set<String> files = new java.util.LinkedHashSet<>();
        commits().forEach(c -> files.addAll(c.files()));
        return new ArrayList<>(files);
    }

    /** A record key that depends only on the files a commit holds, so a replay finds it. */
    public static String keyOf(Collection<StagedFile> files) {
        List<String> names = files.stream().map(StagedFile::finalPath).sorted().toList();
        long run = files.iterator().next().run();
        return String.format("%06d-%s", run,
                io.skippr.core.record.SkipprId.of("commit", String.join("\n", names)));
    }

    /** Per stream, the last position a bounded run committed. */
    public Map<String, String> positions() {
        Map<String, String> positions = new LinkedHashMap<>();
        commits().stream().filter(Commit::bounded).forEach(c -> positions.putAll(c.positions()));
        return positions;
    }

    /** Records the commit of {@code files}, unless a record with this key exists. */
    public void record(String key, Collection<StagedFile> files) throws IOException {
        Path target = dir.resolve(key + ".json");
        if (Files.exists(target)) {
            return;
        }
        Files.createDirectories(dir);
        ObjectNode doc = JSON.createObjectNode();
        StagedFile first = files.iterator().next();
        doc.put("run", first.run());
        doc.put("bounded", first.bounded());
        ArrayNode list = doc.putArray("files");
        ObjectNode rows = doc.putObject("rows");
        Map<String, Object> max = new LinkedHashMap<>();
        Map<String, String> maxText = new LinkedHashMap<>();
        for (StagedFile f : files) {
            list.add(f.finalPath());
            rows.put(f.stream(), rows.path(f.stream()).asLong(0) + f.rows());
            if (f.cursor() != null) {
                Object value = CursorValues.parse(DataType.of(DataType.Kind.valueOf(
                        f.cursorType())), f.cursor());
                Object best = CursorValues.max(max.get(f.stream()), value);
                if (best == value) {
                    max.put(f.stream(), value);
                    maxText.put(f.stream(), f.cursor());
                }
            }
        }
        ObjectNode positions = doc.putObject("positions");
        maxText.forEach(positions::put);
        Path temp = dir.resolve("." + key + ".json.tmp");
        Files.write(temp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc));
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static Commit read(Path p) throws IOException {
        JsonNode doc = JSON.readTree(p.toFile());
        List<String> files = new ArrayList<>();
        doc.path("files").forEach(f -> files.add(f.asText()));
        Map<String, Long> rows = new LinkedHashMap<>();
        doc.path("rows").fields().forEachRemaining(e -> rows.put(e.getKey(), e.getValue().asLong()));
        Map<String, String> positions = new LinkedHashMap<>();
        doc.path("positions").fields().forEachRemaining(e -> positions.put(e.getKey(),
                e.getValue().asText()));
        return new Commit(doc.path("run").asLong(), doc.path("bounded").asBoolean(), files, rows,
                positions);
    }
}
