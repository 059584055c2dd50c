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
 * @param unseen on the first record a read of the split sends: what its snapshot could not see, for
 *     the split's state; else null
 * @param bytes the bytes PostgreSQL sent for the row (its binary COPY tuple); 0 for positions
 */
record ReadRecord(SourceRecord record, List<String> key, long ordinal, Unseen unseen, long bytes) {
    ReadRecord(SourceRecord record, List<String> key, long ordinal) {
        this(record, key, ordinal, null, 0);
    }

    ReadRecord withUnseen(Unseen notSeen) {
        return new ReadRecord(record, key, ordinal, notSeen, bytes);
    }

    ReadRecord withBytes(long sent) {
        return new ReadRecord(record, key, ordinal, unseen, sent);
    }
}
