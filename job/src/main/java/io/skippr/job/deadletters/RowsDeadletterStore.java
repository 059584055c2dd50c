package io.skippr.job.deadletters;

import io.skippr.core.record.Deadletter;
import io.skippr.sinks.deadletters.KeptDeadletters;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The deadletter table of a kind that reads it with its own client (ClickHouse), as text rows. */
final class RowsDeadletterStore implements DeadletterStore {
    private final KeptDeadletters.TextRows rows;

    RowsDeadletterStore(KeptDeadletters.TextRows rows) {
        this.rows = rows;
    }

    @Override
    public String describe() {
        return rows.describe();
    }

    @Override
    public List<StoredDeadletter> read(String pipeline) throws IOException {
        List<StoredDeadletter> out = new ArrayList<>();
        for (Map<String, String> row : rows.read(pipeline)) {
            String failedAt = row.get("failed_at");
            String dataRun = row.get(Deadletter.DATA_RUN);
            out.add(
                    new StoredDeadletter(
                            row.get("_skippr_id"),
                            row.get("stream"),
                            row.get("stage"),
                            row.get("error_class"),
                            row.get("error_message"),
                            failedAt == null
                                    ? null
                                    : Instant.EPOCH.plus(
                                            Long.parseLong(failedAt), ChronoUnit.MICROS),
                            row.get("source_position"),
                            row.get("payload"),
                            dataRun == null ? 0 : Long.parseLong(dataRun)));
        }
        return out;
    }
}
