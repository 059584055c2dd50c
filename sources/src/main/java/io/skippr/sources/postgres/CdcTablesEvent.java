package io.skippr.sources.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * From the CDC enumerator to the reader streaming the slot: the tables added to the pipeline, in
 * reply to {@link StreamOpened} and again when their snapshot is released.
 */
record CdcTablesEvent(byte[] added) implements SourceEvent {
    private static final long serialVersionUID = 1L;

    static CdcTablesEvent of(CdcAddedTables added) {
        try {
            return new CdcTablesEvent(added.toBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    CdcAddedTables tables() {
        try {
            return CdcAddedTables.fromBytes(added);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
