package io.skippr.sinks.databricks.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK's HttpClient against {@link FakeDatabricks}, as the Databricks sink will call it: the
 * Files API uploads Parquet to a volume, COPY INTO loads it once, MERGE, a hostile backticked
 * identifier, a statement's atomicity and its exact error, asynchronous statements and cancel, and
 * the refusal of a bad token and of what the fake does not implement. Needs the test PostgreSQL.
 */
class FakeDatabricksITCase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int ROWS = 1000;

    private static FakeDatabricks fake;

    @BeforeAll
    static void start() throws Exception {
        fake = FakeDatabricks.start();
    }

    @AfterAll
    static void stop() throws Exception {
        fake.close();
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(fake.url() + path))
                .header("Authorization", "Bearer " + fake.token());
    }

    /** POSTs a statement with named parameters ({@code name, value, type, ...}); waits 50 s. */
    private static JsonNode execute(String statement, String... parameters) throws Exception {
        ObjectNode body = JSON.createObjectNode();
        body.put("statement", statement);
        body.put("warehouse_id", FakeDatabricks.WAREHOUSE_ID);
        body.put("wait_timeout", "50s");
        body.put("on_wait_timeout", "CANCEL");
        ArrayNode params = body.putArray("parameters");
        for (int i = 0; i < parameters.length; i += 3) {
            ObjectNode p = params.addObject().put("name", parameters[i]);
            if (parameters[i + 1] != null) {
                p.put("value", parameters[i + 1]);
            }
            p.put("type", parameters[i + 2]);
        }
        return post("/api/2.0/sql/statements", body);
    }

    private static JsonNode post(String path, JsonNode body) throws Exception {
        HttpResponse<String> r =
                HTTP.send(
                        request(path)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> r =
                HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** The rows of a statement that must succeed, as the API's strings (null for NULL). */
    private static List<List<String>> rows(String statement, String... parameters)
            throws Exception {
        JsonNode r = execute(statement, parameters);
        assertThat(r.at("/status/state").asText()).as(r.toString()).isEqualTo("SUCCEEDED");
        assertThat(r.at("/manifest/format").asText()).isEqualTo("JSON_ARRAY");
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode row : r.at("/result/data_array")) {
            List<String> values = new ArrayList<>();
            row.forEach(v -> values.add(v.isNull() ? null : v.asText()));
            rows.add(values);
        }
        assertThat(r.at("/manifest/total_row_count").asLong()).isEqualTo(rows.size());
        return rows;
    }

    private static void ok(String statement) throws Exception {
        JsonNode r = execute(statement);
        assertThat(r.at("/status/state").asText()).as(r.toString()).isEqualTo("SUCCEEDED");
    }

    /** A statement that must fail: its {@code status}. */
    private static JsonNode failed(String statement) throws Exception {
        JsonNode r = execute(statement);
        assertThat(r.at("/status/state").asText()).as(r.toString()).isEqualTo("FAILED");
        return r.path("status");
    }

    private static int upload(String volumePath, Path file, boolean overwrite) throws Exception {
        return HTTP.send(
                        request("/api/2.0/fs/files" + volumePath + "?overwrite=" + overwrite)
                                .header("Content-Type", "application/octet-stream")
                                .PUT(HttpRequest.BodyPublishers.ofFile(file))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static void parquet(Path file, String select) throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = duck.createStatement()) {
            st.execute("COPY (" + select + ") TO '" + file + "' (FORMAT PARQUET)");
        }
    }

    private static String sha256(List<List<String>> rows) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (List<String> row : rows) {
            sha.update(
                    (String.join("|", row.stream().map(String::valueOf).toList()) + "\n")
                            .getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void aParquetFileUploadedToAVolumeIsCopiedIntoATableOnceAndAFailedCopyLoadsNothing(
            @TempDir Path dir) throws Exception {
        ok("CREATE CATALOG IF NOT EXISTS skippr_cat");
        ok("CREATE SCHEMA IF NOT EXISTS skippr_cat.copy_s");
        ok("CREATE VOLUME skippr_cat.copy_s.stage");
        ok(
                "CREATE TABLE skippr_cat.copy_s.loaded (id BIGINT NOT NULL, name STRING,"
                        + " amount DECIMAL(12,2), ts TIMESTAMP, flag BOOLEAN, extra STRING)"
                        + " USING DELTA");
        Path part = dir.resolve("part-0.parquet");
        // "Name" matches the column name case-insensitively; "note" is new: mergeSchema adds it
        parquet(
                part,
                "SELECT i AS id,"
                        + " CASE WHEN i % 10 = 0 THEN NULL ELSE 'näme ' || i || ' \"q'' \\ `b`' END AS \"Name\","
                        + " CAST(i * 1.25 AS DECIMAL(12,2)) AS amount,"
                        + " TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i) + to_milliseconds(i * 7 % 1000) AS ts,"
                        + " i % 2 = 0 AS flag, 'n' || i AS note"
                        + " FROM range(1, "
                        + (ROWS + 1)
                        + ") t(i)");
        String volumePath = "/Volumes/skippr_cat/copy_s/stage/run-1/part-0.parquet";
        assertThat(upload(volumePath, part, false)).isEqualTo(204);
        assertThat(upload(volumePath, part, false)).isEqualTo(409);
        JsonNode listing = get("/api/2.0/fs/directories/Volumes/skippr_cat/copy_s/stage/run-1");
        assertThat(listing.at("/contents/0/path").asText()).isEqualTo(volumePath);
        assertThat(listing.at("/contents/0/file_size").asLong()).isEqualTo(Files.size(part));

        String copy =
                "COPY INTO skippr_cat.copy_s.loaded FROM '/Volumes/skippr_cat/copy_s/stage/run-1'"
                        + " FILEFORMAT = PARQUET FILES = ('part-0.parquet')"
                        + " COPY_OPTIONS ('mergeSchema' = 'true')";
        assertThat(rows(copy)).containsExactly(List.of("" + ROWS, "" + ROWS, "0"));
        // the same file again: skipped, as Databricks' COPY INTO does
        assertThat(rows(copy)).containsExactly(List.of("0", "0", "0"));

        List<List<String>> loaded =
                rows(
                        "SELECT id, name, amount, ts, flag, extra, note FROM skippr_cat.copy_s.loaded"
                                + " ORDER BY id");
        assertThat(loaded).hasSize(ROWS);
        assertThat(sha256(loaded)).isEqualTo(sha256(expectedRows()));

        // one statement, one transaction: a COPY of a good and a bad file loads neither
        parquet(dir.resolve("good.parquet"), "SELECT 5000 + i AS id FROM range(1, 11) t(i)");
        parquet(dir.resolve("bad.parquet"), "SELECT CAST(NULL AS BIGINT) AS id");
        assertThat(
                        upload(
                                "/Volumes/skippr_cat/copy_s/stage/run-2/good.parquet",
                                dir.resolve("good.parquet"),
                                true))
                .isEqualTo(204);
        assertThat(
                        upload(
                                "/Volumes/skippr_cat/copy_s/stage/run-2/bad.parquet",
                                dir.resolve("bad.parquet"),
                                true))
                .isEqualTo(204);
        JsonNode status =
                failed(
                        "COPY INTO skippr_cat.copy_s.loaded FROM '/Volumes/skippr_cat/copy_s/stage/run-2'"
                                + " FILEFORMAT = PARQUET FILES = ('good.parquet', 'bad.parquet')");
        assertThat(status.at("/error/message").asText())
                .isEqualTo(
                        "[DELTA_NOT_NULL_CONSTRAINT_VIOLATED] NOT NULL constraint violated for"
                                + " column: id. SQLSTATE: 23502");
        assertThat(status.at("/error/error_code").asText()).isEqualTo("BAD_REQUEST");
        assertThat(status.path("sql_state").asText()).isEqualTo("23502");
        assertThat(rows("SELECT count(*), sum(id) FROM skippr_cat.copy_s.loaded"))
                .containsExactly(List.of("" + ROWS, "" + (ROWS * (ROWS + 1) / 2)));
        // the fake's own refusal after the good file was loaded undoes that load too
        parquet(dir.resolve("extra.parquet"), "SELECT 6000 AS id, 'x' AS surprise");
        assertThat(
                        upload(
                                "/Volumes/skippr_cat/copy_s/stage/run-2/extra.parquet",
                                dir.resolve("extra.parquet"),
                                true))
                .isEqualTo(204);
        assertThat(
                        failed(
                                        "COPY INTO skippr_cat.copy_s.loaded FROM"
                                                + " '/Volumes/skippr_cat/copy_s/stage/run-2' FILEFORMAT ="
                                                + " PARQUET FILES = ('good.parquet', 'extra.parquet')")
                                .at("/error/message")
                                .asText())
                .startsWith(
                        "[DELTA_METADATA_MISMATCH] A schema mismatch detected when writing to the"
                                + " Delta table `skippr_cat`.`copy_s`.`loaded`");
        assertThat(rows("SELECT count(*), sum(id) FROM skippr_cat.copy_s.loaded"))
                .containsExactly(List.of("" + ROWS, "" + (ROWS * (ROWS + 1) / 2)));
        // the failed statement remembered no file: the good one still loads
        assertThat(
                        rows(
                                "COPY INTO skippr_cat.copy_s.loaded FROM '/Volumes/skippr_cat/copy_s/stage/run-2'"
                                        + " FILEFORMAT = PARQUET FILES = ('good.parquet')"))
                .containsExactly(List.of("10", "10", "0"));
    }

    /** The rows of part-0.parquet as the API answers them, extra (NULL) and note included. */
    private static List<List<String>> expectedRows() {
        List<List<String>> rows = new ArrayList<>();
        for (long i = 1; i <= ROWS; i++) {
            LocalDateTime ts =
                    LocalDateTime.of(2024, 1, 1, 0, 0)
                            .plusSeconds(i)
                            .plusNanos((i * 7 % 1000) * 1_000_000L);
            List<String> row = new ArrayList<>();
            row.add("" + i);
            row.add(i % 10 == 0 ? null : "näme " + i + " \"q' \\ `b`");
            row.add(BigDecimal.valueOf(i * 125, 2).toPlainString());
            row.add(
                    String.format(
                            "%sT%02d:%02d:%02d.%03dZ",
                            ts.toLocalDate(),
                            ts.getHour(),
                            ts.getMinute(),
                            ts.getSecond(),
                            ts.getNano() / 1_000_000));
            row.add(Boolean.toString(i % 2 == 0));
            row.add(null);
            row.add("n" + i);
            rows.add(row);
        }
        return rows;
    }

    @Test
    void mergeUpdatesMatchedRowsInsertsTheOthersAndDeletesWhatItIsTold() throws Exception {
        ok("CREATE TABLE merge_t (id BIGINT NOT NULL, v STRING, amount DECIMAL(10,2))");
        ok("CREATE TABLE merge_src (id BIGINT, v STRING, amount DECIMAL(10,2), op STRING)");
        for (int i = 1; i <= 5; i++) {
            assertThat(
                            rows(
                                    "INSERT INTO merge_t VALUES (:id, :v, :amount)",
                                    "id",
                                    "" + i,
                                    "BIGINT",
                                    "v",
                                    "old " + i,
                                    "STRING",
                                    "amount",
                                    i + ".50",
                                    "DECIMAL(10,2)"))
                    .containsExactly(List.of("1", "1"));
        }
        ok(
                "INSERT INTO merge_src VALUES (2, 'new 2', 20.25, 'u'), (4, NULL, 40.00, 'u'),"
                        + " (5, 'gone', 0, 'd'), (6, 'new 6', 60.75, 'u'), (7, 'never', 1, 'd')");
        String merge =
                "MERGE INTO merge_t AS t USING (SELECT * FROM merge_src) AS s ON t.id = s.id"
                        + " WHEN MATCHED AND s.op = 'd' THEN DELETE"
                        + " WHEN MATCHED THEN UPDATE SET *"
                        + " WHEN NOT MATCHED AND s.op <> 'd' THEN INSERT *";
        assertThat(rows(merge)).containsExactly(List.of("4", "2", "1", "1"));
        List<List<String>> merged = rows("SELECT id, v, amount FROM merge_t ORDER BY id");
        assertThat(merged)
                .containsExactly(
                        List.of("1", "old 1", "1.50"),
                        List.of("2", "new 2", "20.25"),
                        List.of("3", "old 3", "3.50"),
                        java.util.Arrays.asList("4", null, "40.00"),
                        List.of("6", "new 6", "60.75"));
        String checksum = sha256(merged);

        // two source rows for one target row: Databricks' error, and the MERGE changed nothing
        ok("INSERT INTO merge_src VALUES (3, 'twice a', 1, 'u'), (3, 'twice b', 2, 'u')");
        JsonNode status = failed(merge);
        assertThat(status.at("/error/message").asText())
                .startsWith(
                        "[DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE] Cannot perform"
                                + " Merge as multiple source rows matched and attempted to modify the"
                                + " same target row in the Delta table in possibly conflicting ways.")
                .endsWith(" SQLSTATE: 21506");
        assertThat(sha256(rows("SELECT id, v, amount FROM merge_t ORDER BY id")))
                .isEqualTo(checksum);
    }

    @Test
    void aHostileBacktickedIdentifierNamesOneTableWhateverItsCase() throws Exception {
        String schema = "`We``ird \"Sch.ema\" ä`";
        String table = "`Tab\"le ä; DROP TABLE x; --`";
        ok("CREATE SCHEMA main." + schema);
        ok("CREATE TABLE main." + schema + "." + table + " (`Co l``umn` STRING, `ID` INT)");
        assertThat(
                        rows(
                                "INSERT INTO main."
                                        + schema.toUpperCase(java.util.Locale.ROOT)
                                        + "."
                                        + table.toLowerCase(java.util.Locale.ROOT)
                                        + " (`co L``UMN`, id) VALUES ('It\\'s', 1), ('a''b', 2), (\"q\\\"d\", 3)"))
                .containsExactly(List.of("3", "3"));
        assertThat(
                        rows(
                                "SELECT `CO L``UMN`, `Id` FROM main."
                                        + schema
                                        + "."
                                        + table
                                        + " ORDER BY ID"))
                .containsExactly(List.of("It's", "1"), List.of("ab", "2"), List.of("q\"d", "3"));
        try (Connection pg = fake.backing();
                Statement st = pg.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT s.catalog, s.name, t.tablename FROM \"_fake\".schemas s"
                                        + " JOIN pg_tables t ON t.schemaname = s.pg_schema"
                                        + " WHERE s.name <> 'default' AND t.tablename LIKE 'tab%'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("main");
            assertThat(rs.getString(2)).isEqualTo("we`ird \"sch.ema\" ä");
            assertThat(rs.getString(3)).isEqualTo("tab\"le ä; drop table x; --");
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void aFailedStatementAnswersFailedWithDatabricksErrorAndAnUnknownTokenIsRefused()
            throws Exception {
        JsonNode status = failed("SELECT * FROM main.`default`.no_such_table");
        assertThat(status.at("/error/message").asText())
                .isEqualTo(
                        "[TABLE_OR_VIEW_NOT_FOUND] The table or view `main`.`default`.`no_such_table`"
                                + " cannot be found. Verify the spelling and correctness of the schema"
                                + " and catalog.\nIf you did not qualify the name with a schema, verify"
                                + " the current_schema() output, or qualify the name with the correct"
                                + " schema and catalog.\nTo tolerate the error on drop use DROP VIEW IF"
                                + " EXISTS or DROP TABLE IF EXISTS. SQLSTATE: 42P01");
        assertThat(status.path("sql_state").asText()).isEqualTo("42P01");

        ObjectNode body = JSON.createObjectNode();
        body.put("statement", "CREATE TABLE refused_by_token (id INT)");
        body.put("warehouse_id", FakeDatabricks.WAREHOUSE_ID);
        HttpResponse<String> wrong =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(fake.url() + "/api/2.0/sql/statements"))
                                .header("Authorization", "Bearer dapi-not-the-token")
                                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(wrong.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(wrong.body()))
                .isEqualTo(
                        JSON.readTree(
                                "{\"error_code\": 403, \"message\": \"Invalid access token.\"}"));
        HttpResponse<String> none =
                HTTP.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                fake.url()
                                                        + "/api/2.0/fs/files/Volumes/main/default/v/f"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(rows("SELECT count(*) FROM range(3)")).containsExactly(List.of("3"));
        assertThat(failed("SELECT * FROM refused_by_token").path("sql_state").asText())
                .isEqualTo("42P01");
    }

    /**
     * Passes when a 100-character table and column name (Databricks takes 255, PostgreSQL 63 bytes)
     * are created, loaded and read back whole, a second name with the same first 63 bytes is a
     * table of its own, and a name over 255 characters is refused.
     */
    @Test
    void namesOver63BytesBehaveAsOnDatabricks() throws Exception {
        String table = "t".repeat(60) + "_long_table_" + "x".repeat(28);
        String twin = "t".repeat(60) + "_long_table_" + "y".repeat(28);
        String column = "C".repeat(70) + "_column_" + "d".repeat(22);
        ok("CREATE TABLE `" + table + "` (`" + column + "` BIGINT, v STRING)");
        ok("CREATE TABLE `" + twin + "` (`" + column + "` BIGINT)");
        ok("INSERT INTO `" + table + "` VALUES (1, 'a'), (2, 'b')");
        ok("INSERT INTO `" + twin + "` VALUES (7)");
        JsonNode answer = execute("SELECT * FROM `" + table + "` ORDER BY `" + column + "`");
        assertThat(answer.at("/manifest/schema/columns/0/name").asText())
                .isEqualTo(column.toLowerCase(java.util.Locale.ROOT));
        assertThat(rows("SELECT `" + column + "`, v FROM `" + table + "` ORDER BY 1"))
                .containsExactly(List.of("1", "a"), List.of("2", "b"));
        assertThat(rows("SELECT count(*), sum(`" + column + "`) FROM `" + twin + "`"))
                .containsExactly(List.of("1", "7"));
        assertThat(
                        failed("CREATE TABLE `" + "z".repeat(256) + "` (a INT)")
                                .at("/error/message")
                                .asText())
                .startsWith(
                        "[UNSUPPORTED_FEATURE.FAKE_DATABRICKS] The feature is not supported: an"
                                + " identifier longer than 255 characters");
    }

    /**
     * Passes when {@code CREATE OR REPLACE TABLE t AS SELECT} replaces an existing table's columns
     * and rows with the query's (exact rows and checksum), {@code CREATE TABLE t AS SELECT} of an
     * existing table fails with Databricks' error and changes nothing, and a failed replacement
     * leaves the old table.
     */
    @Test
    void createOrReplaceTableAsSelectReplacesTheTableInOneStatement() throws Exception {
        ok("CREATE TABLE ctas_old (id BIGINT, v STRING)");
        ok("INSERT INTO ctas_old VALUES (1, 'old')");
        ok("CREATE TABLE ctas_new (id BIGINT, v STRING, amount DECIMAL(10,2))");
        ok("INSERT INTO ctas_new VALUES (2, 'new 2', 2.50), (3, 'new 3', NULL)");
        ok("CREATE OR REPLACE TABLE ctas_old AS SELECT * FROM ctas_new");
        List<List<String>> replaced = rows("SELECT id, v, amount FROM ctas_old ORDER BY id");
        assertThat(replaced)
                .containsExactly(
                        List.of("2", "new 2", "2.50"), java.util.Arrays.asList("3", "new 3", null));
        String checksum = sha256(replaced);
        assertThat(
                        failed("CREATE TABLE ctas_old AS SELECT * FROM ctas_new")
                                .at("/error/message")
                                .asText())
                .startsWith("[TABLE_OR_VIEW_ALREADY_EXISTS]");
        assertThat(
                        failed("CREATE OR REPLACE TABLE ctas_old AS SELECT * FROM no_such_table")
                                .at("/error/message")
                                .asText())
                .startsWith("[TABLE_OR_VIEW_NOT_FOUND]");
        assertThat(sha256(rows("SELECT id, v, amount FROM ctas_old ORDER BY id")))
                .isEqualTo(checksum);
    }

    @Test
    void whatTheFakeDoesNotImplementIsRefusedWithADatabricksError() throws Exception {
        JsonNode status = failed("SHOW TABLES");
        assertThat(status.at("/error/message").asText())
                .isEqualTo(
                        "[UNSUPPORTED_FEATURE.FAKE_DATABRICKS] The feature is not supported: SHOW"
                                + " (not implemented by the fake Databricks). SQLSTATE: 0A000");
        assertThat(status.path("sql_state").asText()).isEqualTo("0A000");
        assertThat(failed("BEGIN TRANSACTION").at("/error/message").asText())
                .startsWith(
                        "[UNSUPPORTED_FEATURE.FAKE_DATABRICKS] The feature is not supported: BEGIN");
        assertThat(
                        failed(
                                        "COPY INTO t FROM '/Volumes/main/default/v' FILEFORMAT = PARQUET"
                                                + " PATTERN = '*.parquet'")
                                .at("/error/message")
                                .asText())
                .isEqualTo(
                        "[UNSUPPORTED_FEATURE.FAKE_DATABRICKS] The feature is not supported: COPY"
                                + " INTO PATTERN (PATTERN, VALIDATE, ...) (not implemented by the fake"
                                + " Databricks). SQLSTATE: 0A000");
        ObjectNode body = JSON.createObjectNode();
        body.put("statement", "SELECT 1");
        body.put("warehouse_id", FakeDatabricks.WAREHOUSE_ID);
        body.put("disposition", "EXTERNAL_LINKS");
        HttpResponse<String> links =
                HTTP.send(
                        request("/api/2.0/sql/statements")
                                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(links.statusCode()).isEqualTo(501);
        assertThat(JSON.readTree(links.body()).path("error_code").asText())
                .isEqualTo("NOT_IMPLEMENTED");
    }

    @Test
    void anAsynchronousStatementIsPolledToItsEndAndARunningOneIsCancelled() throws Exception {
        ObjectNode body = JSON.createObjectNode();
        body.put("statement", "SELECT count(*) FROM range(0, 100000)");
        body.put("warehouse_id", FakeDatabricks.WAREHOUSE_ID);
        body.put("wait_timeout", "0s");
        JsonNode started = post("/api/2.0/sql/statements", body);
        assertThat(started.at("/status/state").asText()).isIn("PENDING", "RUNNING", "SUCCEEDED");
        JsonNode ended = poll(started.path("statement_id").asText(), "SUCCEEDED");
        assertThat(ended.at("/result/data_array/0/0").asText()).isEqualTo("100000");
        assertThat(ended.at("/manifest/schema/columns/0/type_name").asText()).isEqualTo("LONG");

        body.put("statement", "SELECT count(*) FROM range(0, 50000000000)");
        String id = post("/api/2.0/sql/statements", body).path("statement_id").asText();
        poll(id, "RUNNING");
        Instant start = Instant.now();
        post("/api/2.0/sql/statements/" + id + "/cancel", JSON.createObjectNode());
        poll(id, "CANCELED");
        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(30));
    }

    /** GETs the statement until it is in {@code state}, within 60 seconds. */
    private static JsonNode poll(String id, String state) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (true) {
            JsonNode r = get("/api/2.0/sql/statements/" + id);
            if (r.at("/status/state").asText().equals(state)) {
                return r;
            }
            assertThat(r.at("/status/state").asText()).as(r.toString()).isIn("PENDING", "RUNNING");
            assertThat(Instant.now()).isBefore(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
}
