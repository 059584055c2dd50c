package io.skippr.conformance;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.config.catalog.Guarantee;
import io.skippr.core.record.DataType;
import io.skippr.job.TestEnv;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** The ClickHouse sink, read back over HTTP with FINAL (deduplicated by _skippr_id). */
final class ClickHouseFixture implements SinkFixture {
    @Override
    public String kind() {
        return "ClickHouse";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.DEDUPLICATED;
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final String database =
            "skippr_kit_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    private static String env(String name) {
        return TestEnv.require(name, "the ClickHouse server that scripts/test starts");
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    ClickHouse:\n      host: "
                + env("SKIPPR_TEST_CH_HOST")
                + "\n      port: "
                + env("SKIPPR_TEST_CH_PORT")
                + "\n      database: "
                + database
                + "\n";
    }

    /**
     * Reads with {@code FINAL}. String columns are read as {@code hex()} (ClickHouse Strings hold
     * any bytes, and JSON output would mangle those that are not UTF-8): valid UTF-8 comes back as
     * text, anything else as the bytes, which is how a BYTES column lands (docs/connectors/
     * clickhouse.md).
     */
    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        if (!exists(table(stream))) {
            return List.of(); // the only case that reads as no rows; any error throws
        }
        String table = quote(database) + "." + quote(table(stream));
        Map<String, Boolean> strings = new LinkedHashMap<>();
        StringBuilder select = new StringBuilder();
        for (String line : query("DESCRIBE TABLE " + table + " FORMAT TabSeparated").split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split("\t");
            boolean string = parts[1].contains("String");
            strings.put(parts[0], string);
            String column = quote(parts[0]);
            select.append(select.length() == 0 ? "" : ", ")
                    .append(string ? "hex(" + column + ") AS " + column : column);
        }
        String body = query("SELECT " + select + " FROM " + table + " FINAL FORMAT JSONEachRow");
        ObjectMapper json =
                new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node = json.readTree(line);
            Map<String, Object> row = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode v = field.getValue();
                Object value;
                if (v.isNull()) {
                    value = null;
                } else if (field.getKey().equals("id")) {
                    value = Long.parseLong(v.asText());
                } else if (strings.getOrDefault(field.getKey(), false)) {
                    value = textOrBytes(HexFormat.of().parseHex(v.asText().toLowerCase()));
                } else {
                    value = v.asText();
                }
                row.put(field.getKey(), value);
            }
            rows.add(row);
        }
        return rows;
    }

    /** Every row the table stores, copies with the same {@code _skippr_id} included (no FINAL). */
    @Override
    public long storedCount(Path dir, String stream) throws Exception {
        if (!exists(table(stream))) {
            return 0;
        }
        return Long.parseLong(
                query(
                                "SELECT count() FROM "
                                        + quote(database)
                                        + "."
                                        + quote(table(stream))
                                        + " FORMAT TabSeparated")
                        .trim());
    }

    /** Whether the database holds the table, from {@code system.tables}. */
    private boolean exists(String table) throws Exception {
        String found =
                query(
                        "SELECT count() FROM system.tables WHERE database = "
                                + literal(database)
                                + " AND name = "
                                + literal(table)
                                + " FORMAT TabSeparated");
        return Long.parseLong(found.trim()) > 0;
    }

    private static String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static Object textOrBytes(byte[] raw) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString();
        } catch (CharacterCodingException e) {
            return raw;
        }
    }

    private static String quote(String name) {
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    /** ClickHouse 18.16's DateTime keeps whole seconds (docs/connectors/clickhouse.md). */
    @Override
    public String landed(DataType.Kind kind, String canonical) {
        if (kind == DataType.Kind.TIMESTAMP || kind == DataType.Kind.TIMESTAMP_TZ) {
            return canonical.replaceFirst("\\.\\d+", "");
        }
        return canonical;
    }

    /** The database the sink loads, of this fixture alone. */
    String database() {
        return database;
    }

    /** Runs a query; NaN and infinities come back as strings in JSON output, not as null. */
    static String query(String sql) throws Exception {
        URI uri =
                URI.create(
                        "http://"
                                + env("SKIPPR_TEST_CH_HOST")
                                + ":"
                                + env("SKIPPR_TEST_CH_PORT")
                                + "/?output_format_json_quote_denormals=1");
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(uri)
                                .POST(HttpRequest.BodyPublishers.ofString(sql))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(response.body());
        }
        return response.body();
    }

    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    @Override
    public void close() throws Exception {
        query("DROP DATABASE IF EXISTS `" + database + "`");
    }
}
