package io.skippr.job;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.files.JsonText;
import java.io.IOException;

/** A failed row as the JSON payload of its deadletter, keyed by column name. */
final class Payloads {
    private Payloads() {}

    /** {@code schema} may be null (an unknown version): values are then keyed {@code _0, _1}. */
    static String of(StreamSchema schema, Row row) {
        StringBuilder out = new StringBuilder("{");
        try {
            for (int i = 0; i < row.values().length; i++) {
                if (i > 0) {
                    out.append(',');
                }
                boolean named = schema != null && i < schema.size();
                JsonText.writeString(out, named ? schema.columns().get(i).name() : "_" + i);
                out.append(':');
                JsonText.writeValue(
                        out,
                        named ? schema.columns().get(i).type() : DataType.STRING,
                        row.value(i));
            }
        } catch (IOException e) {
            return row.toString();
        }
        return out.append('}').toString();
    }
}
