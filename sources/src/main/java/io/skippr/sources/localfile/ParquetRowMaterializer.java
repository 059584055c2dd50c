package io.skippr.sources.localfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.Consumer;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Builds one row (Object[] in the schema's column order) per Parquet record: top-level primitive
 * fields as the Java classes of their types (see {@link ParquetTypes}), groups and repeated fields
 * as JSON text (a LIST as an array, a MAP as an object, a struct as an object).
 */
final class ParquetRowMaterializer extends RecordMaterializer<Object[]> {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Root root;

    /**
     * @param target for each top-level field of the file, its column index in the row
     * @param width the row's number of columns
     */
    ParquetRowMaterializer(MessageType fileSchema, int[] target, int width) {
        this.root = new Root(fileSchema, target, width);
    }

    @Override
    public Object[] getCurrentRecord() {
        return root.values;
    }

    @Override
    public GroupConverter getRootConverter() {
        return root;
    }

    private static final class Root extends GroupConverter {
        private final Converter[] children;
        private final int[] target;
        private final boolean[] repeated;
        private final ArrayNode[] arrays;
        private final int width;
        private Object[] values;

        Root(MessageType schema, int[] target, int width) {
            List<Type> fields = schema.getFields();
            this.children = new Converter[fields.size()];
            this.target = target;
            this.repeated = new boolean[fields.size()];
            this.arrays = new ArrayNode[fields.size()];
            this.width = width;
            for (int i = 0; i < fields.size(); i++) {
                Type f = fields.get(i);
                int field = i;
                int column = target[i];
                if (f.isRepetition(Type.Repetition.REPEATED)) {
                    repeated[i] = true;
                    children[i] = jsonConverter(f, node -> arrays[field].add(node));
                } else if (!f.isPrimitive()) {
                    children[i] =
                            new JsonGroup(
                                    f.asGroupType(), node -> values[column] = node.toString());
                } else {
                    children[i] =
                            new Primitive(
                                    new ParquetTypes.Decoder(f.asPrimitiveType()),
                                    v -> values[column] = v);
                }
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            values = new Object[width];
            for (int i = 0; i < repeated.length; i++) {
                if (repeated[i]) {
                    arrays[i] = JSON.arrayNode();
                }
            }
        }

        @Override
        public void end() {
            for (int i = 0; i < repeated.length; i++) {
                if (repeated[i]) {
                    values[target[i]] = arrays[i].toString();
                }
            }
        }
    }

    private static Converter jsonConverter(Type type, Consumer<JsonNode> sink) {
        if (type.isPrimitive()) {
            return new Primitive(
                    new ParquetTypes.Decoder(type.asPrimitiveType()), v -> sink.accept(toNode(v)));
        }
        return new JsonGroup(type.asGroupType(), sink);
    }

    /** A nested group as a JSON value. */
    private static final class JsonGroup extends GroupConverter {
        private final GroupType type;
        private final Consumer<JsonNode> sink;
        private final Converter[] children;
        private ObjectNode object;

        JsonGroup(GroupType type, Consumer<JsonNode> sink) {
            this.type = type;
            this.sink = sink;
            this.children = new Converter[type.getFieldCount()];
            for (int i = 0; i < children.length; i++) {
                Type f = type.getType(i);
                String name = f.getName();
                Consumer<JsonNode> child =
                        f.isRepetition(Type.Repetition.REPEATED)
                                ? node -> ((ArrayNode) object.get(name)).add(node)
                                : node -> object.set(name, node);
                children[i] = jsonConverter(f, child);
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            object = JSON.objectNode();
            for (Type f : type.getFields()) {
                if (f.isRepetition(Type.Repetition.REPEATED)) {
                    object.putArray(f.getName());
                }
            }
        }

        @Override
        public void end() {
            sink.accept(shape(type, object));
        }
    }

    /** A LIST group as its array of elements, a MAP group as an object; else the struct. */
    static JsonNode shape(GroupType type, ObjectNode object) {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        if (type.getFieldCount() != 1 || !type.getType(0).isRepetition(Type.Repetition.REPEATED)) {
            return object;
        }
        Type repeated = type.getType(0);
        ArrayNode items = (ArrayNode) object.get(repeated.getName());
        if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            boolean wrapped =
                    !repeated.isPrimitive()
                            && repeated.asGroupType().getFieldCount() == 1
                            && !repeated.getName().equals("array")
                            && !repeated.getName().equals(type.getName() + "_tuple");
            if (!wrapped) {
                return items;
            }
            String element = repeated.asGroupType().getType(0).getName();
            ArrayNode out = JSON.arrayNode();
            for (JsonNode item : items) {
                JsonNode value = item.get(element);
                out.add(value == null ? JSON.nullNode() : value);
            }
            return out;
        }
        if ((logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                        || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)
                && !repeated.isPrimitive()
                && repeated.asGroupType().getFieldCount() >= 1) {
            GroupType entry = repeated.asGroupType();
            String keyName = entry.getType(0).getName();
            String valueName = entry.getFieldCount() > 1 ? entry.getType(1).getName() : null;
            ObjectNode out = JSON.objectNode();
            for (JsonNode item : items) {
                JsonNode key = item.get(keyName);
                String k =
                        key == null ? "null" : key.isTextual() ? key.textValue() : key.toString();
                JsonNode value = valueName == null ? null : item.get(valueName);
                out.set(k, value == null ? JSON.nullNode() : value);
            }
            return out;
        }
        return object;
    }

    static JsonNode toNode(Object v) {
        if (v == null) {
            return JSON.nullNode();
        } else if (v instanceof Boolean b) {
            return JSON.booleanNode(b);
        } else if (v instanceof Short s) {
            return JSON.numberNode(s);
        } else if (v instanceof Integer i) {
            return JSON.numberNode(i);
        } else if (v instanceof Long l) {
            return JSON.numberNode(l);
        } else if (v instanceof Float f) {
            return JSON.numberNode(f);
        } else if (v instanceof Double d) {
            return JSON.numberNode(d);
        } else if (v instanceof BigDecimal d) {
            return JSON.numberNode(d);
        } else if (v instanceof String s) {
            return JSON.textNode(s);
        } else if (v instanceof byte[] b) {
            return JSON.binaryNode(b);
        }
        return JSON.textNode(v.toString());
    }

    /** A primitive field: each value decoded and handed on. */
    private static final class Primitive extends PrimitiveConverter {
        private final ParquetTypes.Decoder decoder;
        private final Consumer<Object> sink;

        Primitive(ParquetTypes.Decoder decoder, Consumer<Object> sink) {
            this.decoder = decoder;
            this.sink = sink;
        }

        @Override
        public void addBoolean(boolean value) {
            sink.accept(decoder.ofBoolean(value));
        }

        @Override
        public void addInt(int value) {
            sink.accept(decoder.ofInt(value));
        }

        @Override
        public void addLong(long value) {
            sink.accept(decoder.ofLong(value));
        }

        @Override
        public void addFloat(float value) {
            sink.accept(decoder.ofFloat(value));
        }

        @Override
        public void addDouble(double value) {
            sink.accept(decoder.ofDouble(value));
        }

        @Override
        public void addBinary(Binary value) {
            sink.accept(decoder.ofBinary(value));
        }
    }
}
