package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.sources.ReaderTask;
import io.skippr.sources.RegisteredReaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The continuous enumerator's following of grown files and its readers' reports, driven by hand.
 */
class FileEnumeratorTest {
    @TempDir Path dir;

    /**
     * A reader fails after it reported reading a file's tail: what it read since the last
     * checkpoint is rolled back, so the file is read again from the split given back, and the
     * report is forgotten. On the first version the next listing handed out a tail from the
     * report's offset in place of the split given back, and the lines between were lost
     * (bench/chaos lost 53 lines that way).
     */
    @Test
    void aSplitGivenBackIsReadAgainAndTheReportAfterItForgotten() throws Exception {
        Path file = dir.resolve("in/a.jsonl");
        TestFiles.write(file, line(1) + line(2));
        LocalFileSource source = LocalFileSource.of("in/*.jsonl", null, "s", false, dir, 100);
        FileEntry readTwo = FileEntry.of(file, Files.size(file), 2, 0);
        FileEnumerator enumerator =
                new FileEnumerator(
                        new io.skippr.sources.NoReaders<>(),
                        source,
                        new EnumState(
                                null,
                                List.of(file.toString()),
                                List.of(),
                                true,
                                Map.of(file.toString(), readTwo.toLine())));
        append(file, line(3) + line(4));
        enumerator.onDiscovered(enumerator.discover(), null);
        FileSplit tail = only(enumerator);
        assertThat(tail.recordsRead()).isEqualTo(2);
        enumerator.pendingSplits().clear(); // handed to a reader, which reads it and reports
        FileEntry readFour = FileEntry.of(file, Files.size(file), 4, 0);
        enumerator.handleSourceEvent(
                0, new FileRead(file.toString(), tail.number(), readFour.toLine()));

        enumerator.addSplitsBack(List.of(tail), 0); // the reader failed before a checkpoint
        append(file, line(5));
        enumerator.onDiscovered(enumerator.discover(), null);

        FileSplit next = only(enumerator);
        assertThat(next.recordsRead()).isEqualTo(2);
        assertThat(next.byteOffset()).isEqualTo(readTwo.offset());
    }

    /**
     * Flink snapshots the enumerator before the readers: a reader that reports a finished split
     * between the two snapshots of a checkpoint keeps the report in its state until the enumerator
     * acknowledges it, and a restore from that checkpoint sends it again, so the file is still
     * followed. On the first version the reader's state held nothing of the split, the enumerator's
     * state had no report, and the lines appended after the restore were never read (no tail).
     */
    @Test
    void aReportMadeBetweenTheEnumeratorsAndTheReadersSnapshotsIsSentAgainAfterARestore()
            throws Exception {
        Path file = dir.resolve("in/a.jsonl");
        TestFiles.write(file, line(1) + line(2));
        long readTwo = Files.size(file);
        LocalFileSource source = LocalFileSource.of("in/*.jsonl", null, "s", false, dir, 100);
        RegisteredReaders<FileSplit> coordinator = new RegisteredReaders<>(1);
        FileEnumerator enumerator = new FileEnumerator(coordinator, source, EnumState.initial());
        enumerator.onDiscovered(enumerator.discover(), null);
        enumerator.handleSplitRequest(0, "localhost");
        ReaderTask task = new ReaderTask(0);
        List<FileSplit> readerState;
        try (FileSourceReader reader = new FileSourceReader(task, true)) {
            reader.addSplits(coordinator.assigned(0));
            EnumState enumeratorState = enumerator.snapshotState(1);
            task.readUntilItSends(reader);
            assertThat(task.rows()).hasSize(2);
            task.deliver(enumerator); // acknowledged after the enumerator's snapshot
            readerState = reader.snapshotState(1); // ... so after the reader's snapshot
            assertThat(readerState).singleElement().matches(FileSplit::isReport);

            // both restored from checkpoint 1
            RegisteredReaders<FileSplit> restoredCoordinator = new RegisteredReaders<>(1);
            FileEnumerator restored =
                    new FileEnumerator(restoredCoordinator, source, roundTrip(enumeratorState));
            ReaderTask restoredTask = new ReaderTask(0);
            try (FileSourceReader restoredReader = new FileSourceReader(restoredTask, true)) {
                restoredReader.addSplits(roundTrip(readerState));
                restoredReader.start();
                restoredTask.deliver(restored);
                append(file, line(3));
                restored.onDiscovered(restored.discover(), null);

                FileSplit tail = only(restored);
                assertThat(tail.recordsRead()).isEqualTo(2);
                assertThat(tail.byteOffset()).isEqualTo(readTwo);
                restoredCoordinator.deliver(0, restoredReader);
                assertThat(restoredReader.snapshotState(2)).isEmpty(); // acknowledged: forgotten
            }
        }
    }

    /**
     * A reader restarted alone (the enumerator keeps running) sends again a report the enumerator
     * took: it is acknowledged and not taken twice, though the tail it led to is being read by
     * another reader. Taken again, it made the next listing hand out that tail a second time.
     */
    @Test
    void aReportSentAgainByAReaderRestartedAloneIsTakenOnce() throws Exception {
        Path file = dir.resolve("in/a.jsonl");
        TestFiles.write(file, line(1) + line(2));
        LocalFileSource source = LocalFileSource.of("in/*.jsonl", null, "s", false, dir, 100);
        RegisteredReaders<FileSplit> coordinator = new RegisteredReaders<>(2);
        FileEnumerator enumerator = new FileEnumerator(coordinator, source, EnumState.initial());
        enumerator.onDiscovered(enumerator.discover(), null);
        enumerator.handleSplitRequest(0, "localhost");
        ReaderTask task = new ReaderTask(0);
        List<FileSplit> readerState;
        try (FileSourceReader reader = new FileSourceReader(task, true)) {
            reader.addSplits(coordinator.assigned(0));
            task.readUntilItSends(reader);
            readerState = reader.snapshotState(1);
            task.deliver(enumerator);
        }
        coordinator.fail(0); // before the acknowledgement arrived
        append(file, line(3) + line(4));
        enumerator.onDiscovered(enumerator.discover(), null);
        enumerator.handleSplitRequest(1, "localhost");
        FileSplit tail = coordinator.assigned(1).get(0);
        assertThat(tail.recordsRead()).isEqualTo(2);

        enumerator.addSplitsBack(List.of(), 0); // nothing was handed to it since checkpoint 1
        coordinator.register(0);
        ReaderTask restartedTask = new ReaderTask(0);
        try (FileSourceReader restarted = new FileSourceReader(restartedTask, true)) {
            restarted.addSplits(roundTrip(readerState));
            restarted.start();
            restartedTask.deliver(enumerator);
            append(file, line(5));
            enumerator.onDiscovered(enumerator.discover(), null);

            assertThat(enumerator.pendingSplits()).isEmpty(); // the tail is reader 1's still
            coordinator.deliver(0, restarted);
            assertThat(restarted.snapshotState(2)).isEmpty();
        }
    }

    private static EnumState roundTrip(EnumState state) throws IOException {
        EnumStateSerializer s = EnumStateSerializer.INSTANCE;
        return s.deserialize(s.getVersion(), s.serialize(state));
    }

    private static List<FileSplit> roundTrip(List<FileSplit> splits) throws IOException {
        FileSplitSerializer s = FileSplitSerializer.INSTANCE;
        List<FileSplit> back = new java.util.ArrayList<>();
        for (FileSplit split : splits) {
            back.add(s.deserialize(s.getVersion(), s.serialize(split)));
        }
        return back;
    }

    private static FileSplit only(FileEnumerator enumerator) {
        assertThat(enumerator.pendingSplits()).hasSize(1);
        return enumerator.pendingSplits().iterator().next();
    }

    private static String line(int n) {
        return "{\"n\":" + n + "}\n";
    }

    private static void append(Path file, String text) throws IOException {
        Files.write(file, text.getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
    }
}
