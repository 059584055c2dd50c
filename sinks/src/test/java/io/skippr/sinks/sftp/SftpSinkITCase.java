package io.skippr.sinks.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Secret;
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

/**
 * Pipelines into the in-process SFTP server: every row lands once through a failure, and only
 * committed files are visible.
 */
class SftpSinkITCase extends FileStoreSinkCase {
    @Override
    protected FileStore freshStore() {
        return new SftpFileStore(
                TestSftpServer.get()
                        .passwordUser(TestSftpServer.freshFolder(), dir.resolve("known_hosts")));
    }

    @Test
    void theSftpKindWritesABoundedRunFromItsSettingsWithAKey() throws Exception {
        long n = 1500;
        TestSftpServer server = TestSftpServer.get();
        String folder = TestSftpServer.freshFolder();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("host", "127.0.0.1");
        values.put("port", (long) server.port());
        values.put("user", TestSftpServer.KEY_USER);
        values.put("private_key_file", server.privateKeyFile().toString());
        values.put("private_key_passphrase", new Secret(TestSftpServer.KEY_PASSPHRASE));
        values.put("known_hosts_file", dir.resolve("known_hosts").toString());
        values.put("path", folder);
        values.put("format", "jsonl");
        SinkContext context =
                new SinkContext(
                        "orders", "drop", new ResolvedSettings(null, values), true, null, "append");

        SkipprSink sink = new SftpSinkFactory().create(context);
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        sink.addTo(GeneratedRows.stream(env, n, 1_000_000, -1, null), "it/sink/sftp");
        env.execute("bounded into SFTP");

        try (SftpFileStore store =
                new SftpFileStore(server.keyUser(folder, dir.resolve("known_hosts")))) {
            List<String> files = committedDownloads(store, ".jsonl");
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id)"
                                            + " FROM read_json_auto($files)",
                                    files))
                    .containsExactly(n, n);
        }
        assertThat(new SftpSinkFactory().create(context).committedPositions())
                .as("the run's position is read back from the server")
                .containsEntry("events", String.valueOf(n - 1));
    }
}
