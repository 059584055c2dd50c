package io.skippr.sinks.files;

import io.skippr.core.naming.Names;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * How Skippr's types are stored in Parquet. Decimals keep precision and scale up to 38 digits;
 * unbounded decimals, which Parquet cannot type, are stored as their exact text.
 */
final class ParquetSchemas {
    static final int MAX_DECIMAL_PRECISION = 38;

    private ParquetSchemas() {}

    static MessageType of(StreamSchema schema) {
        List<Type> fields = new ArrayList<>();
        for (Column column : schema.columns()) {
            fields.add(field(column.name(), column.type()));
        }
        fields.add(
                Types.optional(PrimitiveTypeName.BINARY)
                        .as(LogicalTypeAnnotation.stringType())
                        .named(JsonText.ID));
        fields.add(
                Types.optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
                        .named(JsonText.SYNCED_AT));
        return new MessageType(Names.snake(schema.stream()), fields);
    }

    /** Whether a decimal of this type is stored as a Parquet decimal (else as text). */
    static boolean decimalAsBinary(DataType type) {
        return type.precision() > 0 && type.precision() <= MAX_DECIMAL_PRECISION;
    }

    private static Type field(String name, DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
            case INT16 ->
                    Types.optional(PrimitiveTypeName.INT32)
                            .as(LogicalTypeAnnotation.intType(16, true))
                            .named(name);
            case INT32 -> Types.optional(PrimitiveTypeName.INT32).named(name);
            case INT64 -> Types.optional(PrimitiveTypeName.INT64).named(name);
            case FLOAT32 -> Types.optional(PrimitiveTypeName.FLOAT).named(name);
            case FLOAT64 -> Types.optional(PrimitiveTypeName.DOUBLE).named(name);
            case DECIMAL ->
                    decimalAsBinary(type)
                            ? Types.optional(PrimitiveTypeName.BINARY)
                                    .as(
                                            LogicalTypeAnnotation.decimalType(
                                                    type.scale(), type.precision()))
                                    .named(name)
                            : string(name);
            case STRING -> string(name);
            case JSON ->
                    Types.optional(PrimitiveTypeName.BINARY)
                            .as(LogicalTypeAnnotation.jsonType())
                            .named(name);
            case UUID ->
                    Types.optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                            .length(16)
                            .as(LogicalTypeAnnotation.uuidType())
                            .named(name);
            case BYTES -> Types.optional(PrimitiveTypeName.BINARY).named(name);
            case DATE ->
                    Types.optional(PrimitiveTypeName.INT32)
                            .as(LogicalTypeAnnotation.dateType())
                            .named(name);
            case TIME ->
                    Types.optional(PrimitiveTypeName.INT64)
                            .as(LogicalTypeAnnotation.timeType(false, TimeUnit.MICROS))
                            .named(name);
            case TIMESTAMP ->
                    Types.optional(PrimitiveTypeName.INT64)
                            .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS))
                            .named(name);
            case TIMESTAMP_TZ ->
                    Types.optional(PrimitiveTypeName.INT64)
                            .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
                            .named(name);
        };
    }

    private static Type string(String name) {
        return Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(name);
    }
}
