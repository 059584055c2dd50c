package io.skippr.sources.localfile;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte array with strict and lenient UTF-8 decoding. */
final class ByteBuf {
    private byte[] bytes = new byte[256];
    private int length;
    private final CharsetDecoder strict =
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);

    void append(int b) {
        if (length == bytes.length) {
            bytes = Arrays.copyOf(bytes, bytes.length * 2);
        }
        bytes[length++] = (byte) b;
    }

    int length() {
        return length;
    }

    int byteAt(int i) {
        return bytes[i] & 0xff;
    }

    void reset() {
        length = 0;
        if (bytes.length > 1 << 20) {
            bytes = new byte[256]; // do not keep a huge buffer after one long record
        }
    }

    void truncate(int newLength) {
        length = newLength;
    }

    /** Bytes {@code [from, to)} as UTF-8; throws on an invalid byte sequence. */
    String decodeStrict(int from, int to) throws CharacterCodingException {
        boolean ascii = true;
        for (int i = from; i < to; i++) {
            if (bytes[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
        }
        strict.reset();
        return strict.decode(ByteBuffer.wrap(bytes, from, to - from)).toString();
    }

    /** All bytes as UTF-8, invalid sequences replaced by U+FFFD. */
    String decodeLenient() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
