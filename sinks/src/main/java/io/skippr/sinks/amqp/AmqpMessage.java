package io.skippr.sinks.amqp;

import com.rabbitmq.client.AMQP;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.files.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a row becomes a message: the row as one JSON object (its columns, {@code _skippr_id} and
 * {@code _skippr_synced_at}, as the LocalFile sink's JSONL lines), persistent, with {@code
 * _skippr_id} as its message id and the stream, schema version and source position in its headers,
 * so a consumer can drop a message it already has.
 */
final class AmqpMessage {
    static final String CONTENT_TYPE = "application/json";
    static final String APP_ID = "skippr";
    static final int PERSISTENT = 2;

    /** The header with the row's stream. */
    static final String STREAM = "skippr_stream";

    /** The header with the version of the stream's schema the row has. */
    static final String SCHEMA_VERSION = "skippr_schema_version";

    /** The header with the row's position in its source (table and key, file and line). */
    static final String POSITION = "skippr_position";

    /** The header with the pipeline's name. */
    static final String PIPELINE = "skippr_pipeline";

    private AmqpMessage() {}

    /** The message's body: the row as one JSON object, UTF-8. */
    static byte[] body(StringBuilder scratch, StreamSchema schema, Row row) throws IOException {
        scratch.setLength(0);
        JsonText.writeRow(scratch, schema, row, false);
        return scratch.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The message's properties. */
    static AMQP.BasicProperties properties(String pipeline, Row row) {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put(STREAM, row.stream());
        headers.put(SCHEMA_VERSION, row.schemaVersion());
        headers.put(POSITION, row.position());
        headers.put(PIPELINE, pipeline);
        return new AMQP.BasicProperties.Builder()
                .contentType(CONTENT_TYPE)
                .contentEncoding("utf-8")
                .deliveryMode(PERSISTENT)
                .messageId(row.id())
                .timestamp(Date.from(JsonText.syncedAt(row)))
                .appId(APP_ID)
                .headers(headers)
                .build();
    }
}
