package io.skippr.sinks.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.core.naming.Names;
import io.skippr.core.record.CommittedPosition;
import io.skippr.core.record.SkipprId;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The commit records of a file sink, under {@code _skippr/commits/<pipeline>/} in its store: one
 * JSON object per subtask commit, written atomically right after that commit's files were
 * published. Each pipeline keeps its own records, so pipelines that share a folder or prefix never
 * read each other's positions or undo each other's runs. Records written before logs were per
 * pipeline sit directly under {@code _skippr/commits/} and are read by every pipeline's log.
 *
 * <p>A continuous run's files count as committed once a record lists them. A bounded run counts
 * only when every one of its subtasks recorded its commit (each records at least an end marker): a
 * run that died half committed is undone by the next bounded run, and the cursor positions in its
 * records are ignored, so a position advances exactly when all its data has landed.
 */
public final class CommitLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String DIR = "_skippr/commits/";

    private final FileStore store;

    /** The pipeline whose records this log reads and writes; null reads every pipeline's. */
    private final String pipeline;

    /** The log of {@code pipeline}'s commits in {@code store}. */
    public CommitLog(FileStore store, String pipeline) {
        this.store = store;
        this.pipeline = Names.snake(pipeline);
    }

    /** Every pipeline's commits in {@code store}, for readers; it cannot record. */
    public CommitLog(FileStore store) {
        this.store = store;
        this.pipeline = null;
    }

    /** Every pipeline's commits in a local folder sink, for readers. */
    public CommitLog(Path root) {
        this(new LocalFileStore(root));
    }

    /**
     * One subtask's commit: its record's key, its files' keys, per stream the highest cursor value
     * among them, and, for a deadletter sink, the data run its deadletters belong to (else 0).
     */
    public record Commit(
            String record,
            long run,
            boolean bounded,
            int subtask,
            int parallelism,
            List<String> files,
            Map<String, Long> rows,
            Map<String, String> positions,
            long deadletterRun) {}

    public List<Commit> commits() {
        try {
            List<Commit> commits = new ArrayList<>();
            List<Commit> older = new ArrayList<>();
            for (String key : store.list(DIR)) {
                String name = key.substring(key.lastIndexOf('/') + 1);
                if (!name.endsWith(".json") || name.startsWith(".")) {
                    continue;
                }
                String folder = key.substring(DIR.length(), key.lastIndexOf('/') + 1);
                if (folder.isEmpty()) {
                    older.add(read(key, store.get(key)));
                } else if (pipeline == null || folder.equals(pipeline + "/")) {
                    commits.add(read(key, store.get(key)));
                }
            }
            commits.addAll(pipeline == null ? older : runsOfThisPipeline(older));
            commits.sort(Comparator.comparingLong(Commit::run));
            return commits;
        } catch (IOException e) {
            throw new FileSinkException("read the commit log in", store, e);
        }
    }

    /**
     * The records written before logs were per pipeline that belong to this pipeline: every record
     * of a run that published a file named after it (its end markers included, so a complete run
     * still counts as complete).
     */
    private List<Commit> runsOfThisPipeline(List<Commit> older) {
        Set<Long> runs = new HashSet<>();
        for (Commit c : older) {
            for (String file : c.files()) {
                if (file.substring(file.lastIndexOf('/') + 1).startsWith(pipeline + "-")) {
                    runs.add(c.run());
                }
            }
        }
        return older.stream().filter(c -> runs.contains(c.run())).toList();
    }

    /** The folder of a record: runs are numbered per pipeline, so they count per folder. */
    private static String scope(Commit c) {
        return c.record().substring(0, c.record().lastIndexOf('/') + 1);
    }

    /** The highest run number any record names, or 0. */
    public long lastRun() {
        return commits().stream().mapToLong(Commit::run).max().orElse(0);
    }

    /** The commits that count: all continuous ones, and those of complete bounded runs. */
    public List<Commit> effective() {
        List<Commit> all = commits();
        Set<String> complete = completeBoundedRuns(all);
        return all.stream().filter(c -> !c.bounded() || complete.contains(runOf(c))).toList();
    }

    /** The records of bounded runs that did not complete. */
    public List<Commit> incomplete() {
        List<Commit> all = commits();
        Set<String> complete = completeBoundedRuns(all);
        return all.stream().filter(c -> c.bounded() && !complete.contains(runOf(c))).toList();
    }

    /** Every committed file's key, in commit order. */
    public List<String> committedKeys() {
        Set<String> files = new LinkedHashSet<>();
        effective().forEach(c -> files.addAll(c.files()));
        return new ArrayList<>(files);
    }

    /** Every committed file's local path, in commit order; for a local folder's log only. */
    public List<String> committedFiles() {
        if (!(store instanceof LocalFileStore local)) {
            throw new IllegalStateException(store.describe() + " is not a local folder");
        }
        return committedKeys().stream().map(k -> local.path(k).toString()).toList();
    }

    /**
     * Per stream, where the next run starts: the position the last complete bounded run reached,
     * with the read positions of every continuous commit after it added.
     */
    public Map<String, String> positions() {
        return committed().positions();
    }

    private io.skippr.core.record.CommittedPositions committed() {
        var committed = new io.skippr.core.record.CommittedPositions();
        for (Commit c : effective()) { // in run order
            Map<String, CommittedPosition> positions = new LinkedHashMap<>();
            c.positions().forEach((s, p) -> positions.put(s, typed(p)));
            if (c.bounded()) {
                committed.bounded(c.run(), positions);
            } else {
                committed.continuous(
                        positions, c.rows().values().stream().mapToLong(Long::longValue).sum());
            }
        }
        return committed;
    }

    private static CommittedPosition typed(String position) {
        String[] parts = position.split(":", 2);
        return new CommittedPosition(parts[0], parts[1]);
    }

    /** Rows in every effective commit. */
    public long committedRows() {
        return effective().stream()
                .flatMap(c -> c.rows().values().stream())
                .mapToLong(Long::longValue)
                .sum();
    }

    /**
     * Rows committed by continuous runs after the last bounded run whose records hold no read
     * position: a run that starts from {@link #positions} would load them again.
     */
    public long rowsAfterPositions() {
        return committed().uncovered();
    }

    private static String runOf(Commit c) {
        return scope(c) + c.run();
    }

    private static Set<String> completeBoundedRuns(List<Commit> all) {
        Map<String, Set<Integer>> subtasks = new LinkedHashMap<>();
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (Commit c : all) {
            if (c.bounded()) {
                subtasks.computeIfAbsent(runOf(c), r -> new HashSet<>()).add(c.subtask());
                parallelism.put(runOf(c), c.parallelism());
            }
        }
        Set<String> complete = new HashSet<>();
        subtasks.forEach(
                (run, seen) -> {
                    if (seen.size() >= parallelism.get(run)) {
                        complete.add(run);
                    }
                });
        return complete;
    }

    /** A record key that depends only on what a commit holds, so a replay finds its record. */
    public static String keyOf(Collection<StagedFile> files) {
        List<String> names =
                files.stream().map(f -> f.isMarker() ? marker(f) : f.key()).sorted().toList();
        StagedFile first = files.iterator().next();
        return String.format(
                "%06d-%03d-%s",
                first.run(), first.subtask(), SkipprId.of("commit", String.join("\n", names)));
    }

    /** A marker in a record key: a continuous run's position markers differ by their position. */
    private static String marker(StagedFile f) {
        return f.bounded()
                ? "marker:" + f.subtask()
                : "position:" + f.subtask() + ":" + SkipprId.of(f.stream(), f.cursor());
    }

    /** Records the commit of {@code files}, unless a record with this key exists. */
    public void record(String key, Collection<StagedFile> files) throws IOException {
        record(key, files, 0);
    }

    /**
     * Records the commit of {@code files} of a deadletter sink that takes data run {@code
     * deadletterRun}'s deadletters (0: a data sink), unless a record with this key exists.
     */
    public void record(String key, Collection<StagedFile> files, long deadletterRun)
            throws IOException {
        if (pipeline == null) {
            throw new IllegalStateException("a log of every pipeline's commits cannot record");
        }
        String target = DIR + pipeline + "/" + key + ".json";
        if (store.exists(target)) {
            return;
        }
        StagedFile first = files.iterator().next();
        ObjectNode doc = JSON.createObjectNode();
        doc.put("run", first.run());
        doc.put("bounded", first.bounded());
        doc.put("subtask", first.subtask());
        doc.put("parallelism", first.parallelism());
        if (deadletterRun > 0) {
            doc.put("deadletter_run", deadletterRun);
        }
        ArrayNode list = doc.putArray("files");
        ObjectNode rows = doc.putObject("rows");
        Map<String, CommittedPosition> positions = new LinkedHashMap<>();
        for (StagedFile f : files) {
            if (!f.isMarker()) {
                list.add(f.key());
                rows.put(f.stream(), rows.path(f.stream()).asLong(0) + f.rows());
            }
            if (f.cursor() != null) {
                positions.merge(
                        f.stream(),
                        new CommittedPosition(f.cursorType(), f.cursor()),
                        CommittedPosition::combine);
            }
        }
        ObjectNode pos = doc.putObject("positions");
        positions.forEach((stream, p) -> pos.put(stream, p.type() + ":" + p.value()));
        store.put(target, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc));
    }

    /**
     * A file as a key: records written before sinks had stores list absolute local paths, which
     * become keys relative to the local store's root.
     */
    private String asKey(String file) {
        if (store instanceof LocalFileStore local && file.startsWith("/")) {
            Path path = Path.of(file);
            if (path.startsWith(local.root())) {
                return local.root().relativize(path).toString().replace('\\', '/');
            }
        }
        return file;
    }

    private Commit read(String key, byte[] bytes) throws IOException {
        JsonNode doc = JSON.readTree(bytes);
        List<String> files = new ArrayList<>();
        doc.path("files").forEach(f -> files.add(asKey(f.asText())));
        Map<String, Long> rows = new LinkedHashMap<>();
        doc.path("rows")
                .fields()
                .forEachRemaining(e -> rows.put(e.getKey(), e.getValue().asLong()));
        Map<String, String> positions = new LinkedHashMap<>();
        doc.path("positions")
                .fields()
                .forEachRemaining(e -> positions.put(e.getKey(), e.getValue().asText()));
        return new Commit(
                key,
                doc.path("run").asLong(),
                doc.path("bounded").asBoolean(),
                doc.path("subtask").asInt(),
                doc.path("parallelism").asInt(1),
                files,
                rows,
                positions,
                doc.path("deadletter_run").asLong(0));
    }
}
