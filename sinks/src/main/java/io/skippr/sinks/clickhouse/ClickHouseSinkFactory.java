package io.skippr.sinks.clickhouse;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.RowCheck;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.bounded.BoundedSinkTopology;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ClickHouse data sink: batched inserts over the HTTP interface into ReplacingMergeTree tables,
 * at-least-once and deduplicated by {@code _skippr_id}.
 */
public final class ClickHouseSinkFactory implements SinkFactory, KeepsDeadletters {
    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSinkFactory.class);

    @Override
    public String kind() {
        return "ClickHouse";
    }

    /** None: it commits no positions (at-least-once), so a bounded run reads from the start. */
    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return Map.of();
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("ClickHouse");
        return sink(
                ClickHouseSettings.of(context.settings()),
                context.failPoint(),
                context.bounded(),
                context.deadletterRun());
    }

    static SkipprSink sink(ClickHouseSettings settings, FailPoint failPoint) {
        return sink(settings, failPoint, false);
    }

    /**
     * Checks that the server answers and takes the login, creates the database if needed, and
     * returns the sink; so a wrong host or password fails before the job starts. The deadletter
     * sink of data run {@code deadletterRun} (0: a data sink) in a bounded run first deletes the
     * deadletters of that data run an earlier attempt inserted ({@link
     * ClickHouseTables#deleteDataRun}).
     */
    static SkipprSink sink(ClickHouseSettings settings, FailPoint failPoint, boolean bounded) {
        return sink(settings, failPoint, bounded, 0);
    }

    static SkipprSink sink(
            ClickHouseSettings settings, FailPoint failPoint, boolean bounded, long deadletterRun) {
        ClickHouseHttp http = new ClickHouseHttp(settings);
        try {
            String version = http.query("SELECT version()").strip();
            ClickHouseTables tables = new ClickHouseTables(http, settings.database());
            tables.createDatabase();
            if (bounded && deadletterRun > 0) {
                // It cannot wait for the data sink, so an earlier attempt of this data run (whose
                // data did not commit) inserted its deadletters: this run writes them again.
                tables.deleteDataRun(ClickHouseTables.tableName(Deadletter.STREAM), deadletterRun);
            }
            LOG.info(
                    "ClickHouse {} at {}, database {}",
                    version,
                    settings.address(),
                    settings.database());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClickHouseException("Interrupted while connecting to ClickHouse", e);
        }
        return new SkipprSink() {
            @Override
            public Map<String, String> committedPositions() {
                // At-least-once: no positions are committed with the rows, so a bounded run
                // reads its source from the start and the table folds the copies.
                return Map.of();
            }

            @Override
            public RowCheck loadCheck() {
                return new ClickHouseLimits();
            }

            /**
             * Inserts as it writes, so it cannot wait for another sink; as a deadletter sink its
             * stream ends once every row was sent, and the table folds copies by {@code
             * _skippr_id}.
             */
            @Override
            public DataStream<Long> addTo(
                    DataStream<SourceRecord> records, String uid, DataStream<Long> commitAfter) {
                return BoundedSinkTopology.addTo(
                        records,
                        new ClickHouseSink(settings, failPoint),
                        uid,
                        commitAfter,
                        bounded);
            }
        };
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.Rows(
                new ClickHouseDeadletters(ClickHouseSettings.of(context.settings())));
    }
}
