package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Config;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.s3.S3FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The spec's "Route failed records to a deadletter sink" example, as written, into S3Proxy: the
 * only lines added to its YAML are the two that point the S3 client at the local server instead of
 * AWS ({@code endpoint}, {@code path_style_access}).
 */
class SpecDeadletterExampleITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(6)
                            .build());

    @TempDir Path dir;

    private static String env(String name) {
        return TestEnv.require(name, "the S3Proxy server that scripts/test starts");
    }

    private static S3Connection s3() {
        return S3Connection.of(env("SKIPPR_TEST_S3_REGION"), env("SKIPPR_TEST_S3_ENDPOINT"), true)
                .withKeys(env("SKIPPR_TEST_S3_ACCESS_KEY"), env("SKIPPR_TEST_S3_SECRET_KEY"));
    }

    @Test
    void deadlettersLandInTheS3DeadletterSink() throws Exception {
        try (S3Client client = s3().open()) {
            client.createBucket(b -> b.bucket("acme-lake"));
        } catch (S3Exception e) {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BucketAlreadyOwnedByYou");
        }
        try (FileStore rejects = new S3FileStore(s3(), "acme-lake", "deadletters/orders")) {
            for (String key : rejects.list("")) {
                rejects.delete(key); // what an earlier run against this server left
            }
        }
        try (TestPostgres pg = new TestPostgres()) {
            pg.exec(
                    "CREATE TABLE orders (id bigint PRIMARY KEY, amount numeric)",
                    "INSERT INTO orders SELECT i, i * 1.25 FROM generate_series(1, 300) i",
                    "UPDATE orders SET amount = 'NaN' WHERE id IN (7, 8)");
            Path file = dir.resolve("skippr.yml");
            Files.writeString(
                    file,
                    """
                    pipelines:
                      orders:
                        data_source: data_sources.app_db
                        data_sink: data_sinks.warehouse
                        deadletter_sink: deadletter_sinks.rejects

                    deadletter_sinks:
                      rejects:
                        S3:
                          s3_bucket: acme-lake
                          s3_prefix: deadletters/orders
                          endpoint: %s
                          path_style_access: true
                    data_sinks:
                      warehouse:
                        LocalFile: {path: warehouse}
                    data_sources:
                      app_db:
                    %s"""
                            .formatted(
                                    env("SKIPPR_TEST_S3_ENDPOINT"), pg.sourceYaml("orders", null)));
            StreamExecutionEnvironment flink = TestFlink.env(false);
            PipelineGraph.build(
                    flink,
                    new PipelineGraph.Request(
                            Config.load(file).getPipeline("orders"),
                            true,
                            TestPostgres.passwordEnv(),
                            dir.resolve("state")));
            var counters =
                    Progress.byStream(flink.execute("spec deadletters").getAllAccumulatorResults());
            assertThat(counters.get("orders"))
                    .containsEntry("written", 298L)
                    .containsEntry("deadlettered", 2L);
        }

        List<String> rows = new ArrayList<>();
        try (FileStore rejects = new S3FileStore(s3(), "acme-lake", "deadletters/orders");
                Connection db = DriverManager.getConnection("jdbc:duckdb:")) {
            List<String> local = new ArrayList<>();
            for (String key : new CommitLog(rejects).committedKeys()) {
                Path copy = dir.resolve("dl-" + local.size() + ".parquet");
                rejects.download(key, copy);
                local.add("'" + copy + "'");
                assertThat(key).startsWith("skippr_deadletters/");
            }
            ResultSet rs =
                    db.createStatement()
                            .executeQuery(
                                    "SELECT pipeline, stream, stage, source_position FROM"
                                            + " read_parquet("
                                            + local
                                            + ") ORDER BY source_position");
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        assertThat(rows).containsExactly("orders orders transform", "orders orders transform");
    }
}
