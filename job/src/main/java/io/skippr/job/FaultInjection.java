package io.skippr.job;

import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * For recovery tests: an operator that throws once, when a subtask has passed {@code afterRows}
 * rows. A marker file remembers the failure across the restart it causes.
 */
public final class FaultInjection implements MapFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final long afterRows;
    private final String marker;
    private transient long rows;

    public FaultInjection(long afterRows, Path marker) {
        this.afterRows = afterRows;
        this.marker = marker.toString();
    }

    @Override
    public SourceRecord map(SourceRecord record) throws IOException {
        if (record instanceof Row && ++rows == afterRows && !Files.exists(Path.of(marker))) {
            Files.createFile(Path.of(marker));
            throw new IOException("injected failure after " + afterRows + " rows");
        }
        return record;
    }
}
