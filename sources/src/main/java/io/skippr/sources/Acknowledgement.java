package io.skippr.sources;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * The enumerator's answer to a reader's report ({@link UnacknowledgedReports}): its state holds the
 * report now, so the reader may forget it.
 *
 * @param report the report, as the reader sent it
 */
public record Acknowledgement(SourceEvent report) implements SourceEvent {
    private static final long serialVersionUID = 1L;

    /**
     * Acknowledges {@code report} to the reader of {@code subtask}, after the enumerator's state
     * took it in, on the coordinator thread. A reader not registered (it failed since it sent the
     * report) is not sent anything: restarted, it sends the report again.
     */
    public static void send(SplitEnumeratorContext<?> context, int subtask, SourceEvent report) {
        if (context.registeredReaders().containsKey(subtask)) {
            context.sendEventToSourceReader(subtask, new Acknowledgement(report));
        }
    }
}
