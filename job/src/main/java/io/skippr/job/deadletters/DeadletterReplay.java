package io.skippr.job.deadletters;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Deadletters sent through a pipeline's normalise and load stages again, in place of its source.
 * Each becomes the row it was, at the source position it was read from, so it keeps its {@code
 * _skippr_id}. The ids of the deadletters replayed are committed as the read position of a stream
 * of their own, {@value #STREAM}, with the rows, in the data sink's commit protocol: a replay that
 * was interrupted after its commit, or is run again, finds them there and loads none twice.
 */
public final class DeadletterReplay {
    /** The stream whose committed position holds the ids of every deadletter replayed. */
    public static final String STREAM = "skippr_replays";

    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final List<StoredDeadletter> selected;

    /** Replays {@code selected}, whose payloads must be JSON objects ({@link #replayable}). */
    public DeadletterReplay(List<StoredDeadletter> selected) {
        this.selected = List.copyOf(selected);
    }

    /**
     * The source position a replayed record that fails again has as a deadletter: {@code replay:<id
     * of the deadletter replayed>|<where the record was read>}.
     */
    public static String replayPosition(String replayedId, String originalPosition) {
        return StoredDeadletter.replayPosition(replayedId, originalPosition);
    }

    /** The ids of the deadletters replayed so far, from a data sink's committed positions. */
    public static Set<String> replayed(Map<String, String> committedPositions) {
        String position = committedPositions.get(STREAM);
        if (position == null || !ReadPositions.isEntries(position)) {
            return Set.of();
        }
        return ReadPositions.entries(position);
    }

    /**
     * Whether a deadletter holds a row to send again: a JSON object keyed by column name. A record
     * the source could not decode holds the text as read; it is read again from the corrected
     * source instead.
     */
    public static boolean replayable(StoredDeadletter d) {
        if (d.payload() == null) {
            return false;
        }
        try {
            return JSON.readTree(d.payload()).isObject();
        } catch (IOException e) {
            return false;
        }
    }

    /** Per stream and source position ({@code stream \0 position}), the deadletter replayed. */
    public Map<String, String> origins() {
        Map<String, String> out = new HashMap<>();
        for (StoredDeadletter d : selected) {
            out.put(d.stream() + "\u0000" + d.originalPosition(), d.id());
        }
        return out;
    }

    /**
     * What the replay's source sends: per stream its schema, then the rows of the deadletters not
     * replayed yet, then the ids of every deadletter replayed, this replay's included.
     *
     * @param streams the schemas the pipeline's source reads, as its check tells them
     * @param committedPositions the data sink's committed positions, read when the run starts
     */
    public List<SourceRecord> records(
            String source, List<StreamSchema> streams, Map<String, String> committedPositions) {
        Set<String> done = new TreeSet<>(replayed(committedPositions));
        Map<String, StreamSchema> schemas = new LinkedHashMap<>();
        streams.forEach(s -> schemas.put(s.stream(), s));
        List<SourceRecord> out = new ArrayList<>();
        Set<String> announced = new TreeSet<>();
        Set<String> ids = new TreeSet<>(done);
        for (StoredDeadletter d : selected) {
            if (done.contains(d.id())) {
                continue; // an interrupted replay committed it already
            }
            StreamSchema schema = schemas.get(d.stream());
            if (schema == null) {
                throw new CannotReadDeadletters(
                        "stream "
                                + d.stream()
                                + " of deadletter "
                                + d.id()
                                + " is not one "
                                + source
                                + " reads (it reads "
                                + (schemas.isEmpty()
                                        ? "streams whose schemas it learns only while reading"
                                        : String.join(", ", schemas.keySet()))
                                + "), so the deadletter has no schema to be replayed with");
            }
            if (announced.add(schema.stream())) {
                out.add(new SchemaChange(schema));
            }
            out.add(
                    Row.insert(
                            d.stream(), schema.version(), values(schema, d), d.originalPosition()));
            ids.add(d.id());
        }
        out.add(new ReadPosition(STREAM, ReadPositions.of(ids)));
        return out;
    }

    private static Object[] values(StreamSchema schema, StoredDeadletter d) {
        JsonNode payload;
        try {
            payload = JSON.readTree(d.payload());
        } catch (IOException e) {
            throw new CannotReadDeadletters(
                    "deadletter " + d.id() + " holds no JSON object: " + e.getMessage());
        }
        Object[] values = new Object[schema.size()];
        for (int i = 0; i < values.length; i++) {
            Column column = schema.columns().get(i);
            JsonNode value = payload.get(column.name());
            if (value == null) {
                value =
                        payload.get(
                                "_" + i); // a row of a schema version its deadletter did not know
            }
            values[i] = value(value, column.type());
        }
        return values;
    }

    /** A payload value as the normalise step takes it: text, a number, a boolean or null. */
    private static Object value(JsonNode value, DataType type) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (type.kind() == DataType.Kind.BYTES && value.isTextual()) {
            return Base64.getDecoder().decode(value.textValue());
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToLong() ? (Object) value.longValue() : value.decimalValue();
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        return value.toString(); // a JSON object or array: a JSON column's text
    }
}
