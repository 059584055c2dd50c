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
 * The PostgreSQL source with {@code replication_method: cdc}: a snapshot consistent with a logical
 * replication slot, read in key-range splits, then the slot's changes in commit order.
 */
public final class CdcSource
        implements Source<SourceRecord, CdcSplit, CdcEnumeratorState>,
                ResultTypeQueryable<SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final PostgresSourceConfig config;

    public CdcSource(PostgresSourceConfig config) {
        this.config = config;
    }

    @Override
    public Boundedness getBoundedness() {
        return config.bounded() ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<CdcSplit, CdcEnumeratorState> createEnumerator(
            SplitEnumeratorContext<CdcSplit> context) {
        return new CdcSplitEnumerator(context, config, CdcEnumeratorState.initial());
    }

    @Override
    public SplitEnumerator<CdcSplit, CdcEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<CdcSplit> context, CdcEnumeratorState checkpoint) {
        return new CdcSplitEnumerator(context, config, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<CdcSplit> getSplitSerializer() {
        return CdcSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<CdcEnumeratorState> getEnumeratorCheckpointSerializer() {
        return CdcEnumeratorState.Serializer.INSTANCE;
    }

    @Override
    public SourceReader<SourceRecord, CdcSplit> createReader(SourceReaderContext context) {
        return new CdcSourceReader(context, config);
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return SerializerTypeInfo.SOURCE_RECORD;
    }

    @Override
    public String toString() {
        return "CdcSource[" + config + "]";
    }
}
