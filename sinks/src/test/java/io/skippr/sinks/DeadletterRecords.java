package io.skippr.sinks;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import java.util.ArrayList;
import java.util.List;

/** What a deadletter sink receives in the sinks' tests. */
public final class DeadletterRecords {
    private DeadletterRecords() {}

    /**
     * The deadletter schema, then the rows of data run {@code dataRun}: one transform-stage
     * deadletter of stream {@code orders} per source position.
     */
    public static List<SourceRecord> of(long dataRun, String... positions) {
        List<SourceRecord> records = new ArrayList<>();
        records.add(new SchemaChange(Deadletter.SCHEMA));
        for (String position : positions) {
            records.add(
                    new Deadletter(
                                    "orders",
                                    "orders",
                                    Deadletter.TRANSFORM,
                                    "UndecodableRecord",
                                    "one field too many",
                                    1_700_000_000_000_000L,
                                    position,
                                    "1,2,3,4")
                            .toRow(dataRun));
        }
        return records;
    }
}
