package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.config.catalog.Guarantee;
import io.skippr.job.TestEnv;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.glue.FakeGlueServer;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.s3.S3FileStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The Athena sink (Parquet in daily partitions) on the S3Proxy that {@code scripts/test} starts,
 * with its Glue schema sink on a fake Glue server that this fixture runs in the test JVM on
 * 127.0.0.1 (the kit's {@code skipprd} processes reach it through {@code glue_endpoint}). Rows are
 * read back from the committed Parquet files; each read also checks that Glue holds the stream's
 * table, every column the rows have and the partition of every committed file, and that each file
 * the bucket shows under the table's folder is in a partition registered at the folder holding it
 * ({@link FakeGlueServer#assertPartitionsHold}).
 */
final class AthenaFixture extends FileStoreFixture {
    private static final String PREFIX = "lake/raw";
    private static final String DATABASE = "kit";
    private static final Pattern DAY = Pattern.compile("/dt=(\\d{4}-\\d{2}-\\d{2})/");

    private static String env(String name) {
        return TestEnv.require(name, "the S3Proxy server that scripts/test starts");
    }

    private final String bucket = "skippr-kit-" + UUID.randomUUID().toString().substring(0, 8);
    private final FakeGlueServer glue = FakeGlueServer.start();

    AthenaFixture() throws Exception {
        super("parquet");
        try (S3Client s3 = connection().open()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
    }

    private static S3Connection connection() {
        return S3Connection.of(env("SKIPPR_TEST_S3_REGION"), env("SKIPPR_TEST_S3_ENDPOINT"), true)
                .withKeys(env("SKIPPR_TEST_S3_ACCESS_KEY"), env("SKIPPR_TEST_S3_SECRET_KEY"));
    }

    @Override
    public String kind() {
        return "Athena";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    private String shared() {
        return "      s3_bucket: "
                + bucket
                + "\n      s3_prefix: "
                + PREFIX
                + "\n      athena_workgroup_name: primary\n"
                + "      athena_results_s3_bucket: kit-athena-results\n      region: "
                + env("SKIPPR_TEST_S3_REGION")
                + "\n";
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    schema_sink: schema_sinks.glue\n    Athena:\n"
                + shared()
                + "      s3_endpoint: "
                + env("SKIPPR_TEST_S3_ENDPOINT")
                + "\n";
    }

    @Override
    public String schemaSinksYaml(Path dir) {
        return "schema_sinks:\n  glue:\n    Glue:\n"
                + shared()
                + "      glue_database_name: "
                + DATABASE
                + "\n      glue_endpoint: "
                + glue.endpoint()
                + "\n";
    }

    /** For skipprd processes: the default chain's variables, as a user's shell has them. */
    @Override
    public Map<String, String> env() {
        return Map.of(
                "AWS_ACCESS_KEY_ID", env("SKIPPR_TEST_S3_ACCESS_KEY"),
                "AWS_SECRET_ACCESS_KEY", env("SKIPPR_TEST_S3_SECRET_KEY"),
                "AWS_EC2_METADATA_DISABLED", "true");
    }

    @Override
    List<String> list(Path dir, String prefix) {
        try (S3Client s3 = connection().open()) {
            return s3
                    .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(PREFIX + "/" + prefix))
                    .contents()
                    .stream()
                    .map(o -> o.key().substring(PREFIX.length() + 1))
                    .sorted()
                    .toList();
        }
    }

    @Override
    FileStore store(Path dir) {
        return new S3FileStore(connection(), bucket, PREFIX);
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        List<Map<String, Object>> rows = super.rows(dir, stream);
        if (!rows.isEmpty()) {
            checkGlue(dir, stream, rows);
        }
        return rows;
    }

    private void checkGlue(Path dir, String stream, List<Map<String, Object>> rows)
            throws Exception {
        String table = table(stream);
        JsonNode definition =
                glue.table(DATABASE, table)
                        .orElseThrow(() -> new AssertionError("Glue holds no table " + table));
        Set<String> columns = new HashSet<>();
        definition
                .path("StorageDescriptor")
                .path("Columns")
                .forEach(c -> columns.add(c.path("Name").asText()));
        for (String column : rows.get(0).keySet()) {
            assertThat(columns)
                    .as("Glue table " + table + " has the files' column " + column)
                    .contains(column.toLowerCase(Locale.ROOT));
        }
        List<List<String>> partitions = glue.partitions(DATABASE, table);
        List<String> files = new ArrayList<>();
        for (String key : files(dir, stream)) {
            Matcher day = DAY.matcher(key);
            assertThat(day.find()).as(key + " is in a dt= partition").isTrue();
            assertThat(partitions)
                    .as("Glue registered the partition of " + key)
                    .contains(List.of(day.group(1)));
            files.add("s3://" + bucket + "/" + PREFIX + "/" + key);
        }
        glue.assertPartitionsHold(DATABASE, table, files);
    }

    @Override
    public void close() {
        glue.close();
    }
}
