package io.skippr.sinks.snowflake.fake;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.sinks.s3.TestS3;
import io.skippr.sinks.snowflake.fake.QueryResult.Column;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The fake's internal stages, kept in the test S3Proxy under a prefix of their own: {@code
 * users/<USER>/}, {@code tables/<SCHEMA>/<TABLE>/} and {@code stages/<SCHEMA>/<NAME>/}. Named
 * stages are listed in the backing database ({@code "_fake".stages}). A {@code PUT} answers with
 * the stage's S3 location, S3Proxy's endpoint and keys, and the driver uploads with its own S3
 * client; {@code LIST}, {@code REMOVE} and {@code COPY} read the bucket here.
 */
final class Stages implements AutoCloseable {
    private static final DateTimeFormatter LAST_MODIFIED =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
                    .withZone(java.time.ZoneOffset.UTC);

    private final S3Client s3;
    final String bucket;
    private final String root;

    Stages(String database) {
        this.s3 = TestS3.connection().open();
        this.bucket = TestS3.bucket();
        this.root = "snowflake-fake/" + database + "/";
    }

    /** A stage resolved to its S3 prefix (ending in {@code /}) and the name LIST shows for it. */
    record Resolved(String prefix, String display, String path) {
        String key() {
            return prefix + path;
        }
    }

    Resolved resolve(StageRef ref, FakeSession session) throws SnowflakeError, SQLException {
        if (ref.kind() == StageRef.Kind.USER) {
            return new Resolved(root + "users/" + session.user + "/", "", ref.path());
        }
        List<String> name = ref.name();
        String object = name.get(name.size() - 1);
        String schema = name.size() >= 2 ? name.get(name.size() - 2) : session.schema();
        if (name.size() == 3 && !name.get(0).equals(session.database())) {
            throw SnowflakeError.notFound("Database", name.get(0));
        }
        if (ref.kind() == StageRef.Kind.TABLE) {
            if (!tableExists(session.pg, schema, object)) {
                throw SnowflakeError.notFound(
                        "Table", session.database() + "." + schema + "." + object);
            }
            return new Resolved(root + "tables/" + schema + "/" + object + "/", "", ref.path());
        }
        if (!stageExists(session.pg, schema, object)) {
            throw SnowflakeError.notFound(
                    "Stage", session.database() + "." + schema + "." + object);
        }
        return new Resolved(
                root + "stages/" + schema + "/" + object + "/",
                object.toLowerCase(Locale.ROOT) + "/",
                ref.path());
    }

    static boolean tableExists(Connection pg, String schema, String table) throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    static boolean schemaExists(Connection pg, String schema) throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT 1 FROM information_schema.schemata WHERE schema_name = ?")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    static boolean stageExists(Connection pg, String schema, String stage) throws SQLException {
        try (PreparedStatement st =
                pg.prepareStatement(
                        "SELECT 1 FROM \"_fake\".stages WHERE schema_name = ? AND stage_name = ?")) {
            st.setString(1, schema);
            st.setString(2, stage);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The answer to {@code PUT}: where the driver uploads, and how. */
    ObjectNode put(
            String localPath,
            Resolved stage,
            boolean autoCompress,
            boolean overwrite,
            String sourceCompression,
            int parallel) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode data = f.objectNode();
        data.put("command", "UPLOAD");
        data.putArray("src_locations").add(localPath);
        data.put("parallel", parallel);
        data.put("autoCompress", autoCompress);
        data.put("overwrite", overwrite);
        data.put("sourceCompression", sourceCompression);
        data.put("clientShowEncryptionParameter", false);
        data.putNull("encryptionMaterial");
        String key = stage.key();
        if (!key.isEmpty() && !key.endsWith("/")) {
            key += "/";
        }
        ObjectNode info = data.putObject("stageInfo");
        info.put("locationType", "S3");
        info.put("location", bucket + "/" + key);
        info.put("path", key);
        info.put("region", TestS3.env("SKIPPR_TEST_S3_REGION"));
        info.put("endPoint", TestS3.env("SKIPPR_TEST_S3_ENDPOINT"));
        info.putNull("storageAccount");
        info.put("isClientSideEncrypted", true);
        info.put("useS3RegionalUrl", false);
        ObjectNode creds = info.putObject("creds");
        creds.put("AWS_KEY_ID", TestS3.env("SKIPPR_TEST_S3_ACCESS_KEY"));
        creds.put("AWS_SECRET_KEY", TestS3.env("SKIPPR_TEST_S3_SECRET_KEY"));
        data.putArray("rowtype");
        data.putArray("rowset");
        data.put("statementTypeId", QueryResult.PUT);
        return data;
    }

    /** Every file under the stage path, with its path relative to the stage. */
    List<S3Object> files(Resolved stage) {
        List<S3Object> files = new ArrayList<>();
        String token = null;
        do {
            String t = token;
            ListObjectsV2Response page =
                    s3.listObjectsV2(
                            b -> b.bucket(bucket).prefix(stage.key()).continuationToken(t));
            files.addAll(page.contents());
            token = page.isTruncated() ? page.nextContinuationToken() : null;
        } while (token != null);
        return files;
    }

    String relative(Resolved stage, S3Object file) {
        return file.key().substring(stage.prefix().length());
    }

    QueryResult list(Resolved stage, Pattern pattern) {
        List<List<String>> rows = new ArrayList<>();
        for (S3Object file : files(stage)) {
            String name = stage.display() + relative(stage, file);
            if (pattern == null || pattern.matcher(name).matches()) {
                rows.add(
                        List.of(
                                name,
                                Long.toString(file.size()),
                                file.eTag().replace("\"", ""),
                                LAST_MODIFIED.format(file.lastModified())));
            }
        }
        return new QueryResult(
                List.of(
                        Column.text("name"),
                        Column.fixed("size"),
                        Column.text("md5"),
                        Column.text("last_modified")),
                rows,
                QueryResult.LIST);
    }

    QueryResult remove(Resolved stage, Pattern pattern) {
        List<List<String>> rows = new ArrayList<>();
        for (S3Object file : files(stage)) {
            String name = stage.display() + relative(stage, file);
            if (pattern == null || pattern.matcher(name).matches()) {
                s3.deleteObject(b -> b.bucket(bucket).key(file.key()));
                rows.add(List.of(name, "removed"));
            }
        }
        return new QueryResult(
                List.of(Column.text("name"), Column.text("result")), rows, QueryResult.REMOVE);
    }

    /** The file at {@code key}, copied into {@code dir}; empty when there is none. */
    java.util.Optional<Path> download(String key, Path dir) throws IOException {
        Path file = Files.createTempFile(dir, "stage-", ".file");
        try (ResponseInputStream<GetObjectResponse> in =
                s3.getObject(b -> b.bucket(bucket).key(key))) {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return java.util.Optional.of(file);
        } catch (NoSuchKeyException e) {
            Files.delete(file);
            return java.util.Optional.empty();
        }
    }

    String eTag(String key) {
        return s3.headObject(b -> b.bucket(bucket).key(key)).eTag().replace("\"", "");
    }

    void delete(String key) {
        s3.deleteObject(b -> b.bucket(bucket).key(key));
    }

    @Override
    public void close() {
        s3.close();
    }
}
