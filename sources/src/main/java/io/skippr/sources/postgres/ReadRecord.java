package io.skippr.sources.postgres;

import io.skippr.core.record.SourceRecord;
import java.util.List;

/**
 * A record read from a split, with the progress emitting it makes.
 *
 * @param record a Row, or an Undecodable for a row PostgreSQL holds values of that Skippr cannot
 *     represent
 * @param key the row's primary key as PostgreSQL text; null without a key
 * @param ordinal the row's 1-based number in the split's order, counting from the split's start
 * @param xids on the first record a read of the split sends: the transactions in progress in its
 *     snapshot, for the split's state; else null
 * @param band on that record, the split's {@link PostgresSplit#band}; else null
 * @param parts on that record, the split's {@link PostgresSplit#parts}; else null
 */
record ReadRecord(
        SourceRecord record,
        List<String> key,
        long ordinal,
        List<Long> xids,
        XidBand band,
        List<ReadEntry.Part> parts) {
    ReadRecord(SourceRecord record, List<String> key, long ordinal) {
        this(record, key, ordinal, null, null, null);
    }

    ReadRecord withXids(List<Long> inProgress, XidBand inBand, List<ReadEntry.Part> read) {
        return new ReadRecord(record, key, ordinal, inProgress, inBand, read);
    }
}
