package io.skippr.sources.postgres;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.SourceContext;
import io.skippr.core.spi.SourceFactory;
import io.skippr.core.spi.SourceServerState;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.connector.source.Source;

/** The {@code Postgres} data source kind. */
public final class PostgresSourceFactory implements SourceFactory {
    @Override
    public String kind() {
        return "Postgres";
    }

    @Override
    public Source<SourceRecord, ?, ?> create(SourceContext context) {
        PostgresSourceConfig config = PostgresSourceConfig.from(context);
        return config.isCdc() ? new CdcSource(config) : new PostgresSource(config);
    }

    @Override
    public List<StreamSchema> check(SourceContext context) {
        return SourceCheck.run(PostgresSourceConfig.from(context), context.entry());
    }

    @Override
    public Optional<SourceServerState> serverState(SourceContext context) {
        return CdcServerState.of(context);
    }

    @Override
    public String compact(String position) {
        String cdc = CdcPositions.compact(position);
        return cdc != null ? cdc : PositionCompaction.compact(position);
    }
}
