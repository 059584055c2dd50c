package io.skippr.core.serde;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.SourceRecord;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information that hands Flink one of Skippr's own serializers, so Kryo is never used. */
public final class SerializerTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    public static final SerializerTypeInfo<SourceRecord> SOURCE_RECORD =
            new SerializerTypeInfo<>(SourceRecord.class, SourceRecordSerializer.INSTANCE);
    public static final SerializerTypeInfo<Deadletter> DEADLETTER =
            new SerializerTypeInfo<>(Deadletter.class, DeadletterSerializer.INSTANCE);

    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    public SerializerTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
        this.type = type;
        this.serializer = serializer;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer.duplicate();
    }

    @Override
    public String toString() {
        return "SerializerTypeInfo(" + type.getSimpleName() + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof SerializerTypeInfo<?> other
                && other.type.equals(type)
                && other.serializer.equals(serializer);
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof SerializerTypeInfo;
    }
}
