package io.skippr.sources.localfile;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A streaming RFC 4180 parser over bytes: comma-separated fields, fields in double quotes may hold
 * commas, line breaks and doubled quotes ({@code ""}). Records end at LF, CRLF or CR outside
 * quotes. An unquoted empty field is null; a quoted empty field is the empty string. A quote inside
 * an unquoted field is kept as text.
 *
 * <p>It works on bytes so that it knows the file offset where each record ends (for exact restore),
 * and decodes each record's fields as strict UTF-8 once the record is complete. A record it cannot
 * decode gets an {@link #error()} and its raw text, and parsing goes on with the next record. A
 * record longer than {@link #MAX_RECORD_BYTES} is cut.
 */
final class CsvParser {
    static final int MAX_RECORD_BYTES = 16 * 1024 * 1024;

    static final String INVALID_UTF8 = "invalid UTF-8 byte sequence";
    static final String UNTERMINATED_QUOTE = "unterminated quoted field";

    private static final int FIELD_START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;
    private static final int QUOTE_SEEN = 3;
    private static final int JUNK = 4;

    private final ByteInput in;
    private final ByteBuf raw = new ByteBuf();
    private final ByteBuf content = new ByteBuf();
    private int[] ends = new int[16];
    private boolean[] quotedFlags = new boolean[16];
    private int fieldCount;
    private boolean quoted;
    private boolean tooLong;
    private String error;
    private final List<String> fields = new ArrayList<>();

    CsvParser(ByteInput in) {
        this.in = in;
    }

    /** Reads the next record; false at the end of the input. */
    boolean next() throws IOException {
        raw.reset();
        content.reset();
        fields.clear();
        fieldCount = 0;
        quoted = false;
        tooLong = false;
        error = null;
        int b = in.read();
        if (b == -1) {
            return false;
        }
        int state = FIELD_START;
        while (true) {
            if (b == -1) {
                if (state == QUOTED) {
                    fail(UNTERMINATED_QUOTE);
                }
                endField();
                break;
            }
            boolean terminator = false;
            switch (state) {
                case FIELD_START -> {
                    if (b == '"') {
                        quoted = true;
                        state = QUOTED;
                    } else if (b == ',') {
                        endField();
                    } else if (b == '\n' || b == '\r') {
                        terminator = true;
                    } else {
                        content(b);
                        state = UNQUOTED;
                    }
                }
                case UNQUOTED -> {
                    if (b == ',') {
                        endField();
                        state = FIELD_START;
                    } else if (b == '\n' || b == '\r') {
                        terminator = true;
                    } else {
                        content(b);
                    }
                }
                case QUOTED -> {
                    if (b == '"') {
                        state = QUOTE_SEEN;
                    } else {
                        content(b);
                    }
                }
                case QUOTE_SEEN -> {
                    if (b == '"') {
                        content('"');
                        state = QUOTED;
                    } else if (b == ',') {
                        endField();
                        state = FIELD_START;
                    } else if (b == '\n' || b == '\r') {
                        terminator = true;
                    } else {
                        fail(
                                "unexpected character after the closing quote of field "
                                        + (fieldCount + 1));
                        state = JUNK;
                    }
                }
                default -> {
                    if (b == '\n' || b == '\r') {
                        terminator = true;
                    }
                }
            }
            if (terminator) {
                if (b == '\r' && in.peek() == '\n') {
                    in.read();
                }
                endField();
                break;
            }
            if (!tooLong) {
                if (raw.length() >= MAX_RECORD_BYTES) {
                    tooLong = true;
                    error = "record is longer than " + MAX_RECORD_BYTES + " bytes (cut)";
                } else {
                    raw.append(b);
                }
            }
            b = in.read();
        }
        if (error == null) {
            decodeFields();
        }
        return true;
    }

    private void content(int b) {
        if (!tooLong) {
            content.append(b);
        }
    }

    private void fail(String message) {
        if (error == null) {
            error = message;
        }
    }

    private void endField() {
        if (fieldCount == ends.length) {
            ends = Arrays.copyOf(ends, fieldCount * 2);
            quotedFlags = Arrays.copyOf(quotedFlags, fieldCount * 2);
        }
        ends[fieldCount] = content.length();
        quotedFlags[fieldCount] = quoted;
        fieldCount++;
        quoted = false;
    }

    private void decodeFields() {
        int start = 0;
        for (int i = 0; i < fieldCount; i++) {
            int end = ends[i];
            if (start == end && !quotedFlags[i]) {
                fields.add(null);
            } else {
                try {
                    fields.add(content.decodeStrict(start, end));
                } catch (CharacterCodingException e) {
                    fields.clear();
                    error = INVALID_UTF8;
                    return;
                }
            }
            start = end;
        }
    }

    /** Whether the record is an empty line. */
    boolean blank() {
        return raw.length() == 0 && !tooLong && fieldCount == 1 && !quotedFlags[0];
    }

    /** Why the record cannot be decoded, or null. */
    String error() {
        return error;
    }

    /** The decoded fields (null for an unquoted empty field); empty if {@link #error()}. */
    List<String> fields() {
        return fields;
    }

    /** The record's fields decoded leniently (invalid UTF-8 replaced), for a header. */
    List<String> fieldsLenient() {
        List<String> out = new ArrayList<>(fieldCount);
        int start = 0;
        for (int i = 0; i < fieldCount; i++) {
            int end = Math.min(ends[i], content.length());
            ByteBuf one = new ByteBuf();
            for (int j = start; j < end; j++) {
                one.append(content.byteAt(j));
            }
            out.add(one.decodeLenient());
            start = end;
        }
        return out;
    }

    /** The record as it is in the file, without its line break (invalid UTF-8 replaced). */
    String rawText() {
        return raw.decodeLenient();
    }

    /** The file offset just after the record and its line break. */
    long offset() {
        return in.offset();
    }
}
