package io.skippr.sinks.iceberg;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.bounded.BoundedSinkTopology;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/** Prepares an Iceberg-family sink for a run and adds it to a job graph. */
public final class IcebergSinks {
    private IcebergSinks() {}

    /**
     * Settings for a new run: the namespace is created where missing (so the catalog is reachable
     * and writable before Flink starts), and the run number is one above the highest any table of
     * the namespace records for this pipeline and sink.
     *
     * @param draft the settings, with any run number
     */
    public static IcebergSinkSettings prepare(IcebergSinkSettings draft) {
        return withCatalog(
                draft,
                catalog -> {
                    IcebergTables.ensureNamespace(catalog, draft.icebergNamespace());
                    CommitHistory history = new CommitHistory(draft);
                    if (draft.deadletterRun() > 0) {
                        removeFailedAttemptsDeadletters(catalog, draft, history);
                    }
                    long last = 0;
                    long after = 0;
                    for (TableIdentifier id : catalog.listTables(draft.icebergNamespace())) {
                        Table table = catalog.loadTable(id);
                        last = Math.max(last, history.lastRun(table));
                        // a deadletter sink commits no positions: the data sink guards the run
                        after +=
                                draft.bounded() && draft.deadletterRun() == 0
                                        ? history.rowsAfterPosition(table)
                                        : 0;
                    }
                    if (after > 0 && !draft.merge()) { // merge replaces the rows read again
                        throw io.skippr.core.spi.OnceAfterContinuous.refusal(
                                draft.pipeline(), "data_sinks." + draft.sink(), after, false);
                    }
                    return draft.withRun(last + 1);
                });
    }

    /**
     * Removes the rows of data run {@code settings.deadletterRun()} that a failed attempt left: the
     * data sink has not committed that run (it is still the next), so this run reads the same
     * records again. A bounded run removes them from the deadletter table whatever they are (so a
     * rerun whose records no longer fail, and which commits nothing, keeps none of them). A
     * continuous run removes them from every table whose last deadletter commit was a bounded run's
     * of that data run; a continuous commit clears the mark, so the rows of a continuous run (which
     * a restored checkpoint may still need) are never removed.
     */
    private static void removeFailedAttemptsDeadletters(
            Catalog catalog, IcebergSinkSettings settings, CommitHistory history) {
        DataRunRemoval removal = new DataRunRemoval(settings, "prepare");
        for (TableIdentifier id : catalog.listTables(settings.icebergNamespace())) {
            Table table = catalog.loadTable(id);
            org.apache.iceberg.Transaction tx = table.newTransaction();
            if (settings.bounded()) {
                if (id.name().equals(IcebergTables.name(Deadletter.STREAM))
                        && removal.remove(tx, table, settings.deadletterRun())) {
                    tx.commitTransaction();
                }
                continue;
            }
            if (history.boundedDeadletterRun(table) != settings.deadletterRun()) {
                continue;
            }
            removal.remove(tx, table, settings.deadletterRun());
            history.clearBoundedDeadletterRun(tx.updateProperties());
            tx.commitTransaction();
        }
    }

    /**
     * Per stream, the highest cursor value the latest bounded run of this pipeline and sink
     * committed with its data: where the next bounded run starts.
     */
    public static Map<String, String> committedPositions(IcebergSinkSettings settings) {
        return withCatalog(
                settings,
                catalog -> {
                    Map<String, String> positions = new HashMap<>();
                    if (catalog instanceof org.apache.iceberg.catalog.SupportsNamespaces spaces
                            && !spaces.namespaceExists(settings.icebergNamespace())) {
                        return positions; // nothing committed yet; never created here
                    }
                    CommitHistory history = new CommitHistory(settings);
                    for (TableIdentifier id : catalog.listTables(settings.icebergNamespace())) {
                        Table table = catalog.loadTable(id);
                        history.positions(table)
                                .forEach((stream, p) -> positions.put(stream, p.value()));
                    }
                    return positions;
                });
    }

    /** Rows continuous runs committed after the positions {@link #committedPositions} reads. */
    public static long rowsAfterPositions(IcebergSinkSettings settings) {
        return withCatalog(
                settings,
                catalog -> {
                    CommitHistory history = new CommitHistory(settings);
                    long rows = 0;
                    for (TableIdentifier id : catalog.listTables(settings.icebergNamespace())) {
                        rows += history.rowsAfterPosition(catalog.loadTable(id));
                    }
                    return rows;
                });
    }

    /** A {@link SkipprSink} writing through {@link IcebergSink}. */
    public static SkipprSink sink(IcebergSinkSettings settings, FailPoint failPoint) {
        return new SkipprSink() {
            @Override
            public Map<String, String> committedPositions() {
                return IcebergSinks.committedPositions(settings);
            }

            @Override
            public long rowsAfterPositions() {
                return IcebergSinks.rowsAfterPositions(settings);
            }

            /** With write_mode merge a row read again replaces its key's row. */
            @Override
            public boolean appends(io.skippr.core.record.StreamSchema stream) {
                return !settings.merge() || stream.primaryKey().isEmpty();
            }

            @Override
            public io.skippr.core.spi.RowCheck loadCheck() {
                return new IcebergLimits();
            }

            /** One above the highest run the tables record: this run's own number. */
            @Override
            public long nextRun() {
                return settings.run();
            }

            @Override
            public DataStream<Long> addTo(
                    DataStream<SourceRecord> records, String uid, DataStream<Long> commitAfter) {
                return BoundedSinkTopology.addTo(
                        records,
                        new IcebergSink(settings, failPoint, uid),
                        uid,
                        commitAfter,
                        settings.bounded());
            }
        };
    }

    private interface CatalogWork<T> {
        T run(Catalog catalog);
    }

    private static <T> T withCatalog(IcebergSinkSettings settings, CatalogWork<T> work) {
        Catalog catalog = settings.catalog().open();
        try {
            return work.run(catalog);
        } finally {
            if (catalog instanceof Closeable closeable) {
                try {
                    closeable.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
