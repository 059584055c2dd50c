package io.skippr.sources.localfile;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.serde.SerializerTypeInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The LocalFile data source: CSV, JSONL or Parquet files matched by a glob, read as one stream. One
 * split per file, assigned in path order. Bounded, it reads the files matched at start and
 * finishes; continuous, it lists the glob every {@link #discoveryIntervalMillis()} and reads files
 * it has not seen and the whole lines appended to files it read ({@link FileEnumerator}).
 */
public final class LocalFileSource
        implements Source<SourceRecord, FileSplit, EnumState>, ResultTypeQueryable<SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** How often a continuous source lists the glob. */
    public static final long DEFAULT_DISCOVERY_INTERVAL_MILLIS = 1000;

    private final FileGlob glob;
    private final FileFormat format;
    private final boolean formatFromFiles;
    private final String stream;
    private final boolean bounded;
    private final long discoveryIntervalMillis;
    private final String committed;

    private LocalFileSource(
            FileGlob glob,
            FileFormat format,
            boolean formatFromFiles,
            String stream,
            boolean bounded,
            long discoveryIntervalMillis,
            String committed) {
        this.glob = glob;
        this.format = format;
        this.formatFromFiles = formatFromFiles;
        this.stream = stream;
        this.bounded = bounded;
        this.discoveryIntervalMillis = discoveryIntervalMillis;
        this.committed = committed;
    }

    /**
     * This source starting from {@code position}, the position a sink committed for its stream
     * (null for none): files read to their end are not read again, grown files are read from where
     * the last run stopped ({@link FileEntry}).
     */
    public LocalFileSource from(String position) {
        return new LocalFileSource(
                glob, format, formatFromFiles, stream, bounded, discoveryIntervalMillis, position);
    }

    /**
     * How far the committed position says a file was read without a hole ({@code reached}), and the
     * records it says were read after a hole ({@code skip}, pairs of record counts as {@link
     * FileSplit#skip}): a run reads the file from {@code reached} and past those records.
     */
    record Committed(FileEntry reached, java.util.List<Long> skip) {}

    /**
     * Per file, how far the committed position says it was read; empty for none. Of the entries of
     * a file's newest generation (a {@code --once} run's covers the file from its start, a
     * continuous run's the records after its {@link FileEntry#fromRecords}, a progress entry those
     * up to a row), it is read up to the first record none covers; the entries after that hole say
     * which records are read past.
     */
    java.util.Map<String, Committed> committed() {
        java.util.Map<String, java.util.List<FileEntry>> byFile = new java.util.TreeMap<>();
        if (io.skippr.core.record.ReadPositions.isEntries(committed)) {
            for (String line : io.skippr.core.record.ReadPositions.entries(committed)) {
                FileEntry entry;
                if (io.skippr.core.record.ReadPositions.isProgress(line)) {
                    String[] parts = io.skippr.core.record.ReadPositions.progressParts(line);
                    entry = FileEntry.progress(parts[0], parts[1]);
                } else {
                    entry = FileEntry.parse(line);
                }
                byFile.computeIfAbsent(entry.file(), f -> new java.util.ArrayList<>()).add(entry);
            }
        }
        java.util.Map<String, Committed> files = new java.util.TreeMap<>();
        byFile.forEach((file, entries) -> files.put(file, readTo(entries)));
        return files;
    }

    /** How far the entries of one file say it was read without a hole, and after one. */
    private Committed readTo(java.util.List<FileEntry> entries) {
        int generation = entries.stream().mapToInt(FileEntry::generation).max().orElseThrow();
        java.util.List<FileEntry> newest =
                new java.util.ArrayList<>(
                        entries.stream().filter(e -> e.generation() == generation).toList());
        newest.sort(java.util.Comparator.comparingLong(e -> Math.max(0, e.fromRecords())));
        FileEntry reached = null;
        long at = 0;
        java.util.List<Long> skip = new java.util.ArrayList<>();
        for (FileEntry e : newest) {
            if (Math.max(0, e.fromRecords()) > at || !skip.isEmpty()) { // after a hole
                skip.add(Math.max(0, e.fromRecords()));
                skip.add(e.records());
                continue;
            }
            if (e.records() > at || (e.records() == at && e.offset() >= 0)) {
                at = e.records();
                reached = e;
            }
        }
        if (!skip.isEmpty()) {
            org.slf4j.LoggerFactory.getLogger(LocalFileSource.class)
                    .warn(
                            "LocalFile source {}: the committed position of {} has no records"
                                    + " {} to {} (a commit that never happened); reading them,"
                                    + " and past the records committed after them",
                            stream,
                            newest.get(0).file(),
                            at + 1,
                            skip.get(0));
        }
        if (reached == null) {
            return new Committed(
                    new FileEntry(newest.get(0).file(), 0, 0, 0, "", generation), skip);
        }
        if (reached.offset() < 0) { // a progress entry: resume by skipping records
            return new Committed(new FileEntry(reached.file(), -1, at, 0, "", generation), skip);
        }
        return new Committed(reached, skip);
    }

    /**
     * A source of the files {@code path} matches.
     *
     * @param path a glob; relative to {@code workingDir} unless absolute
     * @param format parquet, jsonl or csv; null to infer it from the extension of the glob, or else
     *     of the files matched now (which must agree)
     * @param stream the stream name
     * @param bounded read what is there and finish, or keep watching the glob
     * @throws IllegalArgumentException if the format cannot be inferred
     */
    public static LocalFileSource of(
            String path, String format, String stream, boolean bounded, Path workingDir) {
        return of(path, format, stream, bounded, workingDir, DEFAULT_DISCOVERY_INTERVAL_MILLIS);
    }

    static LocalFileSource of(
            String path,
            String format,
            String stream,
            boolean bounded,
            Path workingDir,
            long discoveryIntervalMillis) {
        Objects.requireNonNull(stream, "stream");
        FileGlob glob = FileGlob.resolve(path, workingDir);
        if (format != null && !format.isBlank()) {
            return new LocalFileSource(
                    glob,
                    FileFormat.ofSetting(format),
                    false,
                    stream,
                    bounded,
                    discoveryIntervalMillis,
                    null);
        }
        String name = glob.fileNamePattern();
        int dot = name.lastIndexOf('.');
        Optional<FileFormat> fromGlob =
                dot >= 0 && !FileGlob.hasGlobCharacters(name.substring(dot))
                        ? FileFormat.ofFileName(name)
                        : Optional.empty();
        if (fromGlob.isPresent()) {
            return new LocalFileSource(
                    glob, fromGlob.get(), false, stream, bounded, discoveryIntervalMillis, null);
        }
        List<Path> files;
        try {
            files = glob.match();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + glob, e);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(
                    "Cannot infer the format of LocalFile source "
                            + stream
                            + ": "
                            + glob
                            + " has no parquet, jsonl or csv extension and matches no file;"
                            + " set format");
        }
        FileFormat inferred = formatOf(stream, files);
        return new LocalFileSource(
                glob, inferred, true, stream, bounded, discoveryIntervalMillis, null);
    }

    /** The one format the extensions of {@code files} tell. */
    private static FileFormat formatOf(String stream, List<Path> files) {
        FileFormat found = null;
        Path first = null;
        for (Path file : files) {
            String name = file.getFileName().toString();
            Optional<FileFormat> f = FileFormat.ofFileName(name);
            if (f.isEmpty()) {
                throw new IllegalArgumentException(
                        "Cannot infer the format of LocalFile source "
                                + stream
                                + ": "
                                + file
                                + " has no parquet, jsonl or csv extension; set format");
            }
            if (found == null) {
                found = f.get();
                first = file;
            } else if (found != f.get()) {
                throw new IllegalArgumentException(
                        "Cannot infer the format of LocalFile source "
                                + stream
                                + ": the files disagree ("
                                + first
                                + " is "
                                + found
                                + ", "
                                + file
                                + " is "
                                + f.get()
                                + "); set format or narrow path");
            }
        }
        return found;
    }

    /**
     * Checks that newly discovered files have the format's extension when the format was inferred
     * from the files matched at start.
     */
    void checkFormat(List<Path> files) {
        if (!formatFromFiles) {
            return;
        }
        for (Path file : files) {
            Optional<FileFormat> f = FileFormat.ofFileName(file.getFileName().toString());
            if (f.isEmpty() || f.get() != format) {
                throw new IllegalStateException(
                        "LocalFile source "
                                + stream
                                + " reads "
                                + format
                                + " (inferred from the file extensions) but "
                                + file
                                + (f.isEmpty()
                                        ? " has no parquet, jsonl or csv extension"
                                        : " is " + f.get())
                                + "; set format or narrow path");
            }
        }
    }

    FileGlob glob() {
        return glob;
    }

    public FileFormat format() {
        return format;
    }

    public String stream() {
        return stream;
    }

    boolean bounded() {
        return bounded;
    }

    long discoveryIntervalMillis() {
        return discoveryIntervalMillis;
    }

    /** The absolute glob. */
    public String path() {
        return glob.pattern();
    }

    @Override
    public Boundedness getBoundedness() {
        return bounded ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<SourceRecord, FileSplit> createReader(SourceReaderContext readerContext) {
        return new FileSourceReader(readerContext, !bounded);
    }

    @Override
    public SplitEnumerator<FileSplit, EnumState> createEnumerator(
            SplitEnumeratorContext<FileSplit> enumContext) {
        return new FileEnumerator(enumContext, this, EnumState.initial());
    }

    @Override
    public SplitEnumerator<FileSplit, EnumState> restoreEnumerator(
            SplitEnumeratorContext<FileSplit> enumContext, EnumState checkpoint) {
        return new FileEnumerator(enumContext, this, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<FileSplit> getSplitSerializer() {
        return FileSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<EnumState> getEnumeratorCheckpointSerializer() {
        return EnumStateSerializer.INSTANCE;
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return SerializerTypeInfo.SOURCE_RECORD;
    }

    @Override
    public String toString() {
        return "LocalFileSource[" + stream + " " + format + " " + glob + "]";
    }
}
