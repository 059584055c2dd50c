package io.skippr.sources.postgres;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The CDC enumerator's checkpointed state.
 *
 * @param planned whether the slot and the snapshot splits were made
 * @param pending splits not handed out (the snapshot's, then the stream's)
 * @param unread ids of snapshot splits handed out and not reported read
 * @param streamReleased whether the stream split may be handed out: a continuous run releases it
 *     once a checkpoint completed after every snapshot split was read
 * @param streams the streams (tables) the slot's stream delivers, added ones included; null when
 *     unknown (a state written before tables could be added), then no table is added on restore
 * @param added the tables added after the slot was made
 */
record CdcEnumeratorState(
        boolean planned,
        List<CdcSplit> pending,
        List<String> unread,
        boolean streamReleased,
        List<String> streams,
        CdcAddedTables added) {

    static CdcEnumeratorState initial() {
        return new CdcEnumeratorState(
                false, List.of(), List.of(), false, List.of(), CdcAddedTables.NONE);
    }

    /** The state's bytes; bump {@link #VERSION} when this changes. */
    static final class Serializer implements SimpleVersionedSerializer<CdcEnumeratorState> {
        static final int VERSION = 3;
        static final Serializer INSTANCE = new Serializer();

        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(CdcEnumeratorState state) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(1024);
            out.writeBoolean(state.planned());
            out.writeInt(state.pending().size());
            for (CdcSplit split : state.pending()) {
                CdcSplitSerializer.write(split, out);
            }
            PostgresSerde.writeStrings(state.unread(), out);
            out.writeBoolean(state.streamReleased());
            out.writeBoolean(state.streams() != null);
            if (state.streams() != null) {
                PostgresSerde.writeStrings(state.streams(), out);
            }
            state.added().write(out);
            return out.getCopyOfBuffer();
        }

        @Override
        public CdcEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
            if (version < 1 || version > VERSION) {
                throw new IOException("Cannot read a CDC enumerator state of version " + version);
            }
            DataInputDeserializer in = new DataInputDeserializer(serialized);
            boolean planned = in.readBoolean();
            int n = in.readInt();
            List<CdcSplit> pending = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                pending.add(CdcSplitSerializer.read(in, version));
            }
            List<String> unread = PostgresSerde.readStrings(in);
            boolean released = in.readBoolean();
            if (version == 1) {
                return new CdcEnumeratorState(
                        planned, pending, unread, released, null, CdcAddedTables.NONE);
            }
            return new CdcEnumeratorState(
                    planned,
                    pending,
                    unread,
                    released,
                    in.readBoolean() ? PostgresSerde.readStrings(in) : null,
                    CdcAddedTables.read(in, version >= 3));
        }
    }
}
