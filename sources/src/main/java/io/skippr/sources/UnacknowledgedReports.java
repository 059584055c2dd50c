package io.skippr.sources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * The reports a reader sent its enumerator (a split finished, and how far it read) that the
 * enumerator has not acknowledged yet, kept in the reader's checkpointed state as the finished
 * splits they report.
 *
 * <p>Flink snapshots the enumerator before the readers: a report sent between the two snapshots of
 * a checkpoint is in neither after a restore from it (the reader dropped the finished split, the
 * enumerator's state predates the report). So a reader keeps each report until the enumerator's
 * {@link Acknowledgement} arrives, checkpoints the ones it still keeps, and sends the restored ones
 * again when it starts. The enumerator acknowledges a report once its state holds it; Flink
 * delivers an event the coordinator sends after its snapshot only after the reader's own snapshot
 * of that checkpoint, so a report acknowledged before a reader's snapshot is in the enumerator's
 * snapshot too. A report can reach the enumerator twice (a reader restarted alone sends again what
 * the enumerator already took): the enumerator takes the first and acknowledges both.
 *
 * <p>Used on the reader's mailbox thread only.
 *
 * @param <S> the source's split type
 */
public final class UnacknowledgedReports<S extends SourceSplit> {
    private final Predicate<S> isReport;
    private final Function<S, SourceEvent> reportOf;
    private final Map<SourceEvent, S> sent = new LinkedHashMap<>();

    /**
     * @param isReport whether a split in the reader's state is a finished split whose report is
     *     kept
     * @param reportOf the report of such a split
     */
    public UnacknowledgedReports(Predicate<S> isReport, Function<S, SourceEvent> reportOf) {
        this.isReport = isReport;
        this.reportOf = reportOf;
    }

    /** Keeps the report of {@code finished} (a split {@code isReport} holds for) and sends it. */
    public void send(S finished, SourceReaderContext context) {
        SourceEvent report = reportOf.apply(finished);
        sent.put(report, finished);
        context.sendSourceEventToCoordinator(report);
    }

    /** Sends again every report kept: a restored reader's, when it starts. */
    public void sendAgain(SourceReaderContext context) {
        sent.keySet().forEach(context::sendSourceEventToCoordinator);
    }

    /**
     * The splits of {@code added} to read; keeps the reports of the others (a restored reader's
     * finished splits) to {@link #sendAgain}.
     */
    public List<S> toRead(List<S> added) {
        List<S> read = new ArrayList<>(added.size());
        for (S split : added) {
            if (isReport.test(split)) {
                sent.put(reportOf.apply(split), split);
            } else {
                read.add(split);
            }
        }
        return read;
    }

    /** Whether {@code event} is an {@link Acknowledgement}; if so, its report is forgotten. */
    public boolean acknowledged(SourceEvent event) {
        if (event instanceof Acknowledgement ack) {
            sent.remove(ack.report());
            return true;
        }
        return false;
    }

    /** The reader's state: the splits it reads, then the finished ones whose reports are kept. */
    public List<S> withReports(List<S> reading) {
        List<S> state = new ArrayList<>(reading);
        state.addAll(sent.values());
        return state;
    }
}
