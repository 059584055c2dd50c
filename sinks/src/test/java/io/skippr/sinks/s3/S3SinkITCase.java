package io.skippr.sinks.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreSinkCase;
import io.skippr.sinks.testing.DuckDb;
import io.skippr.sinks.testing.GeneratedRows;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** Pipelines into S3Proxy: every row lands once, and only committed files are visible. */
class S3SinkITCase extends FileStoreSinkCase {
    @Override
    protected FileStore freshStore() {
        return new S3FileStore(TestS3.connection(), TestS3.bucket(), TestS3.freshPrefix());
    }

    @Test
    void theS3KindWritesABoundedRunFromItsSettings() throws Exception {
        // The S3 kind signs with the SDK's default chain: here the environment, which the
        // failsafe configuration fills with the test server's keys.
        assertThat(TestS3.env("AWS_ACCESS_KEY_ID"))
                .as("AWS_ACCESS_KEY_ID holds the test server's key (sinks/pom.xml, failsafe)")
                .isEqualTo(TestS3.env("SKIPPR_TEST_S3_ACCESS_KEY"));
        long n = 1500;
        String prefix = TestS3.freshPrefix();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("s3_bucket", TestS3.bucket());
        values.put("s3_prefix", prefix);
        values.put("endpoint", TestS3.env("SKIPPR_TEST_S3_ENDPOINT"));
        values.put("path_style_access", true);
        values.put("format", "jsonl");
        SinkContext context =
                new SinkContext(
                        "orders", "lake", new ResolvedSettings(null, values), true, null, "append");

        SkipprSink sink = new S3SinkFactory().create(context);
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        sink.addTo(GeneratedRows.stream(env, n, 1_000_000, -1, null), "it/sink/s3");
        env.execute("bounded into S3");

        try (S3FileStore store = new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix)) {
            List<String> files = committedDownloads(store, ".jsonl");
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id)"
                                            + " FROM read_json_auto($files)",
                                    files))
                    .containsExactly(n, n);
        }
        assertThat(new S3SinkFactory().create(context).committedPositions())
                .as("the run's position is read back from the bucket")
                .containsEntry("events", String.valueOf(n - 1));
    }
}
