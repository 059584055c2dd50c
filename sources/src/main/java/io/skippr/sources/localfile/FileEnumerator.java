package io.skippr.sources.localfile;

import io.skippr.core.record.Column;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the glob, infers the schema, and hands out one split per file in path order to readers that
 * ask. Bounded: lists once and then tells readers there is nothing more. Continuous: lists every
 * discovery interval and hands out files it has not seen before, and the new tail of a file read
 * before that has grown since ({@link #readTo}), as whole lines: a last line without a line break
 * is read once nobody changed the file for {@link #QUIET_MILLIS}. A file rewritten since it was
 * read (shorter, or its first bytes changed) is read again as its next generation.
 *
 * <p>Listing and schema inference run on the coordinator's worker thread ({@code callAsync}); the
 * state below is changed only on the coordinator thread, in {@link #onDiscovered}.
 */
final class FileEnumerator implements SplitEnumerator<FileSplit, EnumState> {
    private static final Logger LOG = LoggerFactory.getLogger(FileEnumerator.class);

    private final SplitEnumeratorContext<FileSplit> context;
    private final LocalFileSource source;
    private final Set<String> known = new ConcurrentSkipListSet<>();
    private final TreeMap<String, FileSplit> pending = new TreeMap<>();
    private final Set<Integer> waiting = new LinkedHashSet<>();
    private volatile StreamSchema schema;
    private boolean discovered;

    /**
     * Per known file no reader is reading now, how far it was read: set when a reader reports a
     * finished split ({@link FileRead}), removed when its tail is handed out. Read by listings on
     * the worker thread.
     */
    private final Map<String, FileEntry> readTo = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Per file with a split pending or handed out, that split's number: the report of that split is
     * the one the enumerator takes ({@link #handleSourceEvent}); a report of an earlier split of
     * the file is a repeat. Changed on the coordinator thread only.
     */
    private final Map<String, Long> out = new TreeMap<>();

    private long nextNumber;

    private final io.skippr.sources.SourceLag lag;

    /**
     * How long a file must have been left unchanged before a continuous run reads a last line
     * without a line break: a writer appends whole lines, but may pause in the middle of one.
     */
    static final long QUIET_MILLIS = 10_000;

    /** True until the first listing, which compares the files with the committed position. */
    private final java.util.concurrent.atomic.AtomicBoolean firstListing;

    FileEnumerator(
            SplitEnumeratorContext<FileSplit> context, LocalFileSource source, EnumState state) {
        this.context = context;
        this.source = source;
        this.schema = state.schema();
        this.known.addAll(state.knownPaths());
        for (FileSplit split : state.pendingSplits()) {
            pending.put(split.path(), split);
        }
        this.discovered = state.discovered();
        state.readTo().forEach((path, line) -> readTo.put(path, FileEntry.parse(line)));
        this.out.putAll(state.out());
        this.nextNumber = state.nextNumber();
        // a restored enumerator's state knows better than the committed position
        this.firstListing = new java.util.concurrent.atomic.AtomicBoolean(!state.discovered());
        this.lag = new io.skippr.sources.SourceLag(context.metricGroup());
        lag.show(source.stream());
        out.keySet().forEach(path -> lag.found(source.stream(), path));
    }

    @Override
    public void start() {
        if (source.bounded()) {
            if (!discovered) {
                context.callAsync(this::discover, this::onDiscovered);
            }
        } else {
            context.callAsync(
                    this::discover, this::onDiscovered, 0, source.discoveryIntervalMillis());
        }
    }

    /**
     * What one listing found: files not seen before and the schema including them; on the first
     * listing, also what the committed position says of them.
     *
     * @param from per file to read from a committed position, where to start: the end of the last
     *     read of a grown file, or the start of a rewritten file's next generation
     * @param unchanged files the committed position says were read to their end
     * @param carried the committed positions of {@code unchanged}, for this run's position
     * @param ends per file to read, the offset to stop at ({@link FileSplit#endOffset})
     * @param tails per file read before that has grown, where its new tail starts
     */
    record Discovery(
            List<String> files,
            StreamSchema schema,
            Map<String, FileEntry> from,
            Map<String, List<Long>> skips,
            List<String> unchanged,
            List<String> carried,
            Map<String, Long> ends,
            Map<String, Tail> tails) {
        Discovery(List<String> files, StreamSchema schema) {
            this(files, schema, Map.of(), Map.of(), List.of(), List.of(), Map.of(), Map.of());
        }
    }

    /**
     * The new tail of a file: {@code read} is how far it was read (its {@link #readTo} entry when
     * listed), {@code from} where to start (the next generation's start after a rewrite).
     */
    record Tail(FileEntry read, FileEntry from, long end) {}

    /** Lists the glob and inspects new files; runs on the worker thread. */
    Discovery discover() throws IOException {
        List<Path> fresh = new ArrayList<>();
        for (Path file : source.glob().match()) {
            if (!known.contains(file.toString())) {
                fresh.add(file);
            }
        }
        Map<String, FileEntry> from = new TreeMap<>();
        Map<String, List<Long>> skips = new TreeMap<>();
        List<String> unchanged = new ArrayList<>();
        List<String> carried = new ArrayList<>();
        if (firstListing.compareAndSet(true, false)) {
            Map<String, LocalFileSource.Committed> committed = source.committed();
            for (Iterator<Path> it = fresh.iterator(); it.hasNext(); ) {
                Path file = it.next();
                LocalFileSource.Committed read = committed.get(file.toString());
                if (read == null) {
                    continue;
                }
                FileEntry start = resumeFrom(file, read.reached());
                if (start == null) {
                    it.remove();
                    unchanged.add(file.toString());
                    carried.add(read.reached().toLine());
                } else {
                    from.put(file.toString(), start);
                    if (start.generation() == read.reached().generation()) {
                        skips.put(file.toString(), read.skip());
                    }
                }
            }
        }
        Map<String, Long> ends = new TreeMap<>();
        Map<String, Tail> tails = new TreeMap<>();
        if (!source.bounded()) {
            for (Path file : fresh) {
                FileEntry start = from.get(file.toString());
                // a start without an offset (a progress entry) is found by skipping records
                ends.put(
                        file.toString(),
                        end(file, start == null ? 0 : Math.max(0, start.offset())));
            }
            tails = tails();
        }
        if (fresh.isEmpty()) {
            return new Discovery(List.of(), schema, from, skips, unchanged, carried, ends, tails);
        }
        source.checkFormat(fresh);
        StreamSchema current = schema;
        StreamSchema next;
        try {
            next = SchemaInference.extend(source.stream(), source.format(), current, fresh);
        } catch (NoSuchFileException e) {
            // a file vanished between listing and reading it: try again at the next listing
            LOG.info(
                    "LocalFile source {}: {} vanished while listing", source.stream(), e.getFile());
            fresh.removeIf(p -> p.toString().equals(e.getFile()));
            next = SchemaInference.extend(source.stream(), source.format(), current, fresh);
        }
        List<String> paths = new ArrayList<>(fresh.size());
        for (Path p : fresh) {
            paths.add(p.toString());
        }
        return new Discovery(paths, next, from, skips, unchanged, carried, ends, tails);
    }

    /** The files read before that grew or were rewritten since; on the worker thread. */
    private Map<String, Tail> tails() throws IOException {
        Map<String, Tail> tails = new TreeMap<>();
        for (Map.Entry<String, FileEntry> e : readTo.entrySet()) {
            Path file = Path.of(e.getKey());
            FileEntry read = e.getValue();
            try {
                if (java.nio.file.Files.size(file) == read.offset()) {
                    continue; // unchanged (a rewrite to the same size is seen by a --once run)
                }
                FileEntry start = resumeFrom(file, read);
                if (start == null) {
                    continue;
                }
                long end = end(file, Math.max(0, start.offset()));
                if (end < 0 || end > start.offset()) {
                    tails.put(e.getKey(), new Tail(read, start, end));
                }
            } catch (NoSuchFileException gone) {
                // removed since it was read: nothing more to read of it
            }
        }
        return tails;
    }

    /**
     * Where a continuous read of {@code file} from {@code from} stops: just after its last line
     * break; its end (-1) when nobody changed it for {@link #QUIET_MILLIS}, so a last line without
     * a line break is read too; -1 for Parquet, read whole.
     */
    long end(Path file, long from) throws IOException {
        if (source.format() == FileFormat.PARQUET) {
            return -1;
        }
        long size = java.nio.file.Files.size(file);
        long quiet =
                System.currentTimeMillis()
                        - java.nio.file.Files.getLastModifiedTime(file).toMillis();
        if (quiet >= QUIET_MILLIS) {
            return -1;
        }
        try (java.nio.channels.FileChannel ch =
                java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.READ)) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 * 1024);
            long at = size;
            while (at > from) {
                int n = (int) Math.min(buf.capacity(), at - from);
                buf.clear().limit(n);
                long start = at - n;
                while (buf.hasRemaining() && ch.read(buf, start + buf.position()) >= 0) {
                    // fill the chunk
                }
                for (int i = buf.position() - 1; i >= 0; i--) {
                    if (buf.get(i) == '\n') {
                        return start + i + 1;
                    }
                }
                at = start;
            }
        }
        return from; // no whole line after from yet
    }

    /**
     * Where to read {@code file} from, given how far a committed run read it: null when it has
     * nothing new; the end of that read when it only grew (JSONL, CSV); its start, as the next
     * generation, when it was rewritten (shorter, or its first bytes changed, or a Parquet file
     * that changed at all).
     */
    private FileEntry resumeFrom(Path file, FileEntry read) throws IOException {
        long size = java.nio.file.Files.size(file);
        boolean grown = size > read.offset();
        if (size >= read.offset()
                && read.sameHead(file)
                && (!grown || source.format() != FileFormat.PARQUET)) {
            return grown ? read : null;
        }
        LOG.warn(
                "LocalFile source {}: {} changed since a run read {} bytes of it ({} now, {});"
                        + " reading it again from its start as generation {}",
                source.stream(),
                file,
                read.offset(),
                size,
                size < read.offset() ? "shorter" : "its first bytes differ",
                read.generation() + 1);
        return new FileEntry(file.toString(), 0, 0, 0, "", read.generation() + 1);
    }

    /** Takes in a listing; runs on the coordinator thread. Throwing fails the job. */
    void onDiscovered(Discovery found, Throwable error) {
        if (error != null) {
            throw new FlinkRuntimeException(
                    "LocalFile source "
                            + source.stream()
                            + " cannot read the files of "
                            + source.glob()
                            + ": "
                            + error.getMessage(),
                    error);
        }
        schema = merge(schema, found.schema());
        List<String> added = new ArrayList<>();
        known.addAll(found.unchanged());
        for (String path : found.files()) {
            if (known.add(path)) {
                FileSplit split = FileSplit.unread(path, source.format(), splitSchema());
                FileEntry start = found.from().get(path);
                if (start != null) {
                    split =
                            split.at(start.records(), start.offset(), start.generation())
                                    .skipping(found.skips().getOrDefault(path, List.of()));
                }
                split = split.endingAt(found.ends().getOrDefault(path, -1L));
                if (added.isEmpty() && !found.carried().isEmpty()) {
                    split = split.carrying(found.carried());
                }
                addPending(split);
                added.add(path);
            }
        }
        for (Map.Entry<String, Tail> e : found.tails().entrySet()) {
            Tail tail = e.getValue();
            if (readTo.remove(e.getKey(), tail.read())) { // else a reader reported since
                FileEntry start = tail.from();
                addPending(
                        FileSplit.unread(e.getKey(), source.format(), splitSchema())
                                .at(start.records(), start.offset(), start.generation())
                                .endingAt(tail.end()));
                LOG.info(
                        "LocalFile source {}: {} grew; reading it from byte {}",
                        source.stream(),
                        e.getKey(),
                        start.offset());
            }
        }
        if (!discovered && source.bounded() && known.isEmpty()) {
            LOG.warn(
                    "LocalFile source {}: no file matches {}; nothing to read",
                    source.stream(),
                    source.glob());
        }
        if (!added.isEmpty()) {
            LOG.info(
                    "LocalFile source {}: {} new file(s), schema version {}: {}",
                    source.stream(),
                    added.size(),
                    splitSchema().version(),
                    SchemaInference.describe(splitSchema()));
        }
        discovered = true;
        assign();
    }

    /** Numbers a new split and makes it pending: the split of its file out. */
    private void addPending(FileSplit split) {
        FileSplit numbered = split.numbered(nextNumber++);
        pending.put(numbered.path(), numbered);
        out.put(numbered.path(), numbered.number());
        lag.found(source.stream(), numbered.path());
    }

    private StreamSchema splitSchema() {
        StreamSchema s = schema;
        return s != null ? s : new StreamSchema(source.stream(), List.of(), List.of());
    }

    /** {@code current} with the columns of {@code found} it lacks appended. */
    static StreamSchema merge(StreamSchema current, StreamSchema found) {
        if (current == null || found == null || current == found) {
            return current == null ? found : current;
        }
        List<Column> more = new ArrayList<>();
        for (Column c : found.columns()) {
            if (current.indexOf(c.name()) < 0) {
                more.add(c);
            }
        }
        return more.isEmpty() ? current : current.withColumns(more);
    }

    /**
     * A reader finished a split: in a continuous run, the file's growth is read from there. The
     * report is taken once, if it is of the file's split out (a reader restarted alone sends again
     * reports this enumerator took, and a tail may have been handed out since), and acknowledged
     * either way.
     */
    @Override
    public void handleSourceEvent(
            int subtaskId, org.apache.flink.api.connector.source.SourceEvent event) {
        if (event instanceof FileRead read) {
            if (takes(read) && !source.bounded()) {
                readTo.put(read.path(), FileEntry.parse(read.entry()));
            }
            io.skippr.sources.Acknowledgement.send(context, subtaskId, read);
        }
    }

    /**
     * Whether {@code read} reports the split of its file out, which is then no longer out. A split
     * without a number (restored from an earlier version) counts while its file has no numbered
     * split out.
     */
    private boolean takes(FileRead read) {
        Long number = out.get(read.path());
        boolean current =
                read.number() >= 0
                        ? Long.valueOf(read.number()).equals(number)
                        : number == null || number < 0;
        if (current) {
            out.remove(read.path());
            lag.read(source.stream(), read.path());
        }
        return current;
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        waiting.add(subtaskId);
        assign();
    }

    private void assign() {
        Map<Integer, ?> registered = context.registeredReaders();
        for (Iterator<Integer> it = waiting.iterator(); it.hasNext(); ) {
            int subtask = it.next();
            if (!registered.containsKey(subtask)) {
                it.remove();
                continue;
            }
            Map.Entry<String, FileSplit> next = pending.pollFirstEntry();
            if (next != null) {
                context.assignSplit(next.getValue(), subtask);
                it.remove();
            } else if (source.bounded() && discovered) {
                context.signalNoMoreSplits(subtask);
                it.remove();
            } else {
                return;
            }
        }
    }

    /**
     * The splits a failed reader held: what it read of them since the last checkpoint is rolled
     * back, though it may have reported it first (a reader's restart does not reset this
     * enumerator). So a file is read again from the earliest split given back, which is its split
     * out again, and the tail a report after it led to is dropped.
     */
    @Override
    public void addSplitsBack(List<FileSplit> splits, int subtaskId) {
        for (FileSplit split : splits) {
            readTo.remove(split.path());
            FileSplit waiting = pending.get(split.path());
            if (waiting == null || before(split, waiting)) {
                pending.put(split.path(), split);
            }
            out.put(split.path(), pending.get(split.path()).number());
            lag.found(source.stream(), split.path());
        }
        assign();
    }

    /** Whether split {@code a} of a file starts before split {@code b} of it. */
    private static boolean before(FileSplit a, FileSplit b) {
        return a.generation() != b.generation()
                ? a.generation() < b.generation()
                : a.recordsRead() < b.recordsRead();
    }

    @Override
    public void addReader(int subtaskId) {
        // readers ask for splits themselves
    }

    @Override
    public EnumState snapshotState(long checkpointId) {
        Map<String, String> lines = new TreeMap<>();
        readTo.forEach((path, entry) -> lines.put(path, entry.toLine()));
        return new EnumState(
                schema,
                List.copyOf(known),
                List.copyOf(pending.values()),
                discovered,
                lines,
                nextNumber,
                out);
    }

    @Override
    public void close() {}

    /** For tests: the splits not assigned yet. */
    Collection<FileSplit> pendingSplits() {
        return pending.values();
    }

    Optional<StreamSchema> schema() {
        return Optional.ofNullable(schema);
    }
}
