package io.skippr.sources.localfile;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a CSV file: the first non-blank record is the header, whose names map fields to the
 * schema's columns (a name the schema lacks becomes a new STRING column). Values are emitted as the
 * text of the file: String, or null for an unquoted empty field. Blank lines are skipped (and
 * counted). A record that cannot be decoded, or whose field count differs from the header's, is
 * emitted as an Undecodable.
 */
final class CsvFileReader extends FormatReader {
    private ByteInput in;
    private CsvParser parser;
    private int headerSize;
    private int[] target;
    private String headerError;

    CsvFileReader(FileSplit split) throws IOException {
        super(split);
        ByteInput head = ByteInput.open(file, 0, split.endOffset());
        try {
            head.skipBom();
            CsvParser p = new CsvParser(head);
            boolean any;
            do {
                any = p.next();
            } while (any && p.blank());
            if (!any) {
                head.close();
                return; // empty file
            }
            if (p.error() != null && !CsvParser.INVALID_UTF8.equals(p.error())) {
                headerError = p.error();
            } else {
                mapHeader(CsvHeader.names(p.fieldsLenient()));
            }
            if (split.recordsRead() > 0 && split.byteOffset() > 0) {
                head.close();
                in = ByteInput.open(file, split.byteOffset(), split.endOffset());
                parser = new CsvParser(in);
                recordsRead = split.recordsRead();
            } else {
                in = head;
                parser = p;
                while (recordsRead < split.recordsRead() && parser.next()) {
                    recordsRead++;
                }
            }
        } catch (IOException | RuntimeException e) {
            head.close();
            throw e;
        }
    }

    private void mapHeader(List<String> names) {
        headerSize = names.size();
        target = new int[headerSize];
        List<Column> missing = new ArrayList<>();
        for (String name : names) {
            if (!index.containsKey(name)) {
                missing.add(Column.of(name, DataType.STRING));
            }
        }
        if (!missing.isEmpty()) {
            evolve(missing);
        }
        for (int i = 0; i < headerSize; i++) {
            target[i] = index.get(names.get(i));
        }
    }

    @Override
    FileRecord next() throws IOException {
        while (in != null && parser.next()) {
            recordsRead++;
            if (parser.blank()) {
                continue;
            }
            long offset = parser.offset();
            if (headerError != null) {
                return undecodable(
                        parser.rawText(),
                        "the CSV header of this file cannot be decoded: " + headerError,
                        offset);
            }
            if (parser.error() != null) {
                return undecodable(parser.rawText(), parser.error(), offset);
            }
            List<String> fields = parser.fields();
            if (fields.size() != headerSize) {
                return undecodable(
                        parser.rawText(),
                        "expected "
                                + headerSize
                                + " fields as in the header but found "
                                + fields.size(),
                        offset);
            }
            Object[] values = new Object[schema.size()];
            for (int i = 0; i < headerSize; i++) {
                values[target[i]] = fields.get(i);
            }
            return row(values, offset);
        }
        return null;
    }

    @Override
    long offsetAtEnd() {
        return in == null ? -1 : in.offset();
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            in.close();
        }
    }
}
