package io.skippr.sinks.iceberg;

import io.skippr.core.record.CommittedPosition;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits each {@link IcebergCommittable} with one catalog commit per table: an append of the
 * table's new data files (with write_mode merge a row delta of them and their equality deletes)
 * whose snapshot summary records the commit id (pipeline, sink, run and, in a continuous run,
 * checkpoint), the row count and, in a bounded run, the stream's highest cursor value. Then, if
 * asked, compacts the table ({@link Compactor}). A bounded deadletter sink's commit first removes,
 * in the same transaction, the rows of its data run an earlier attempt committed ({@link
 * DataRunRemoval}).
 *
 * <p>Assumptions: it runs alone (parallelism 1, after {@link WriteAggregator}); the data files it
 * is handed are complete; nobody expires the snapshots of a commit Flink may still replay. A
 * replayed commit whose id is in the table's history is skipped, so committing twice is harmless;
 * after a crash between two tables' commits the replay commits only the missing ones. A bounded
 * run's committable must hold every writer subtask's end, or nothing is committed.
 */
final class IcebergCommitter implements Committer<IcebergCommittable> {
    private static final Logger LOG = LoggerFactory.getLogger(IcebergCommitter.class);

    private final IcebergSinkSettings settings;
    private final CommitHistory history;
    private final Compactor compactor;
    private final DataRunRemoval removal;
    private final KeyConflicts conflicts;
    private Catalog catalog;

    IcebergCommitter(IcebergSinkSettings settings, String job) {
        this.settings = settings;
        this.history = new CommitHistory(settings);
        this.compactor = new Compactor(settings, job);
        this.removal = new DataRunRemoval(settings, job);
        this.conflicts = new KeyConflicts(settings);
    }

    @Override
    public void commit(Collection<CommitRequest<IcebergCommittable>> requests) {
        List<CommitRequest<IcebergCommittable>> sorted = new ArrayList<>(requests);
        sorted.sort(
                Comparator.comparingLong(
                                (CommitRequest<IcebergCommittable> r) -> r.getCommittable().run())
                        .thenComparingLong(r -> r.getCommittable().checkpoint()));
        for (CommitRequest<IcebergCommittable> request : sorted) {
            if (!commit(request.getCommittable())) {
                request.signalAlreadyCommitted();
            }
        }
    }

    /** Commits what is not in the tables yet; false if everything was. */
    boolean commit(IcebergCommittable committable) {
        if (settings.bounded()) {
            checkComplete(committable);
        }
        Map<String, List<IcebergWriteResult>> byTable = new TreeMap<>();
        Map<String, CommittedPosition> read = new TreeMap<>();
        for (IcebergWriteResult result : committable.results()) {
            if (result.kind() == IcebergWriteResult.Kind.FILES) {
                byTable.computeIfAbsent(result.table(), t -> new ArrayList<>()).add(result);
            } else if (CommittedPosition.READ.equals(result.cursorType())) {
                read.merge(
                        result.stream(),
                        CommittedPosition.read(result.cursor()),
                        CommittedPosition::combine);
            }
        }
        boolean committed = false;
        for (Map.Entry<String, List<IcebergWriteResult>> e : byTable.entrySet()) {
            committed |= commitTable(committable, e.getKey(), e.getValue(), read);
        }
        return committed || byTable.isEmpty();
    }

    /**
     * @param read per stream, the read positions the run's ends carry: the position a bounded
     *     commit records, over the highest cursor value of the rows
     */
    private boolean commitTable(
            IcebergCommittable committable,
            String name,
            List<IcebergWriteResult> results,
            Map<String, CommittedPosition> read) {
        Table table = catalog().loadTable(settings.table(name));
        String id = history.commitId(committable.run(), committable.checkpoint());
        if (history.contains(table, id)) {
            LOG.info("{} holds commit {} already: skipping its replay", table.name(), id);
            return false;
        }
        List<DataFile> files = new ArrayList<>();
        List<DeleteFile> deletes = new ArrayList<>();
        long rows = 0;
        Map<String, Long> rowsOf = new TreeMap<>();
        for (IcebergWriteResult result : results) {
            files.addAll(result.files());
            deletes.addAll(result.deletes());
            rows += result.rows();
            rowsOf.merge(result.stream(), result.rows(), Long::sum);
        }
        if (files.isEmpty() && deletes.isEmpty()) {
            return false;
        }
        // The data, and the run and positions in the table's properties, in one metadata commit:
        // properties outlive the snapshot, which expiry or compaction may drop.
        Transaction tx = table.newTransaction();
        if (settings.bounded() && settings.deadletterRun() > 0) {
            // A deadletter sink's run repeated because its data did not commit: the deadletters
            // an earlier attempt of the same data run committed go out as this one's come in.
            removal.remove(tx, table, settings.deadletterRun());
        }
        // An append adds the files; write_mode merge's equality deletes go into one row delta
        // with them, so a key's earlier rows go and its newest comes in the same snapshot.
        SnapshotUpdate<?> update;
        if (deletes.isEmpty()) {
            AppendFiles append = tx.newAppend();
            files.forEach(append::appendFile);
            update = append;
        } else {
            RowDelta delta = tx.newRowDelta();
            files.forEach(delta::addRows);
            deletes.forEach(delta::addDeletes);
            conflicts.resolve(table, results).forEach(delta::addDeletes);
            update = delta;
        }
        update.set(CommitHistory.PIPELINE, settings.pipeline());
        update.set(CommitHistory.SINK, settings.sink());
        update.set(CommitHistory.RUN, String.valueOf(committable.run()));
        update.set(CommitHistory.CHECKPOINT, String.valueOf(committable.checkpoint()));
        update.set(CommitHistory.COMMIT_ID, id);
        update.set(CommitHistory.STREAM, results.get(0).stream());
        update.set(CommitHistory.ROWS, String.valueOf(rows));
        update.set(CommitHistory.BOUNDED, String.valueOf(settings.bounded()));
        // per stream: two streams may map to one table, each with its own position
        Map<String, CommittedPosition> positions = new TreeMap<>();
        for (IcebergWriteResult result : results) {
            CommittedPosition sent = read.get(result.stream());
            if (sent != null) {
                positions.merge(result.stream(), sent, CommittedPosition::combine);
            }
            if (result.cursor() != null && result.cursorType() != null) {
                positions.merge(
                        result.stream(),
                        new CommittedPosition(result.cursorType(), result.cursor()),
                        CommittedPosition::combine);
            }
        }
        if (settings.bounded() && positions.size() == 1) { // as before positions were properties
            CommittedPosition position = positions.values().iterator().next();
            update.set(CommitHistory.POSITION, position.value());
            update.set(CommitHistory.POSITION_TYPE, position.type());
        }
        update.commit();
        history.record(tx.updateProperties(), table, committable.run(), rowsOf, positions);
        tx.commitTransaction();
        if (settings.compact()) {
            compact(table);
        }
        return true;
    }

    /** A failed compaction leaves the data committed: it is logged and tried after the next. */
    private void compact(Table table) {
        try {
            compactor.compact(table);
        } catch (RuntimeException e) {
            LOG.warn(
                    "Could not compact {}; the data is committed, the next commit tries again: {}",
                    table.name(),
                    e.toString());
        }
    }

    private void checkComplete(IcebergCommittable committable) {
        Set<Integer> ended = new TreeSet<>();
        int parallelism = -1;
        for (IcebergWriteResult result : committable.results()) {
            if (result.kind() == IcebergWriteResult.Kind.END) {
                ended.add(result.subtask());
                parallelism = result.parallelism();
            }
        }
        if (parallelism < 0 || ended.size() != parallelism) {
            throw new IcebergSinkException(
                    "Bounded run "
                            + committable.run()
                            + " of pipeline "
                            + settings.pipeline()
                            + " reached its commit with the ends of writer subtasks "
                            + ended
                            + (parallelism < 0 ? "" : " of " + parallelism)
                            + ": refusing to commit part of a run");
        }
    }

    private Catalog catalog() {
        if (catalog == null) {
            catalog = settings.catalog().open();
        }
        return catalog;
    }

    @Override
    public void close() throws IOException {
        if (catalog instanceof Closeable closeable) {
            closeable.close();
        }
        catalog = null;
    }
}
