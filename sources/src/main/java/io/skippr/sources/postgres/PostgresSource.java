package io.skippr.sources.postgres;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.serde.SerializerTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The PostgreSQL data source: tables of a schema, read as a parallel snapshot split by primary-key
 * ranges, optionally incremental by a cursor column, bounded or polling.
 */
public final class PostgresSource
        implements Source<SourceRecord, PostgresSplit, PostgresEnumeratorState>,
                ResultTypeQueryable<SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final PostgresSourceConfig config;

    public PostgresSource(PostgresSourceConfig config) {
        this.config = config;
    }

    public PostgresSourceConfig config() {
        return config;
    }

    @Override
    public Boundedness getBoundedness() {
        return config.bounded() ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<PostgresSplit, PostgresEnumeratorState> createEnumerator(
            SplitEnumeratorContext<PostgresSplit> context) {
        return new PostgresSplitEnumerator(context, config, PostgresEnumeratorState.initial());
    }

    @Override
    public SplitEnumerator<PostgresSplit, PostgresEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<PostgresSplit> context, PostgresEnumeratorState checkpoint) {
        return new PostgresSplitEnumerator(context, config, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<PostgresSplit> getSplitSerializer() {
        return PostgresSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<PostgresEnumeratorState> getEnumeratorCheckpointSerializer() {
        return PostgresEnumeratorStateSerializer.INSTANCE;
    }

    @Override
    public SourceReader<SourceRecord, PostgresSplit> createReader(SourceReaderContext context) {
        return new PostgresSourceReader(
                config.connection(), !config.bounded(), context.getConfiguration(), context);
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return SerializerTypeInfo.SOURCE_RECORD;
    }

    @Override
    public String toString() {
        return "PostgresSource[" + config + "]";
    }
}
