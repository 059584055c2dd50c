package io.skippr.sources.localfile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.core.record.Column;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Infers a file stream's schema on the enumerator side, so that every reader starts from the same
 * version.
 *
 * <ul>
 *   <li>Parquet: the footer's schema (see {@link ParquetTypes}); columns of later files that
 *       earlier ones lack are appended.
 *   <li>CSV: column names from each file's header (in file order; names new in a later file are
 *       appended); types from a sample of the first {@value #SAMPLE} data records of the first
 *       file(s), and for a column first seen in a later file, from the first {@value #SAMPLE}
 *       records of that file (see {@link TypeInference}).
 *   <li>JSONL: the keys, in order of first appearance, of the first {@value #SAMPLE} objects of the
 *       first file(s), typed from their values. Keys seen later are added by the readers.
 * </ul>
 *
 * <p>The schema has no primary key. Once a column is typed its type never changes.
 */
final class SchemaInference {
    static final int SAMPLE = 1000;

    private SchemaInference() {}

    /**
     * The schema after inspecting {@code files} (in path order): {@code current} with the columns
     * the files add, or a new schema if {@code current} is null. Returns null if there is still no
     * column to know.
     */
    static StreamSchema extend(
            String stream, FileFormat format, StreamSchema current, List<Path> files)
            throws IOException {
        Map<String, TypeInference> guesses = new LinkedHashMap<>();
        List<Column> known = current == null ? List.of() : current.columns();
        Map<String, Column> fixed = new LinkedHashMap<>();
        for (Column c : known) {
            fixed.putIfAbsent(c.name(), c);
        }
        switch (format) {
            case PARQUET -> {
                for (Path file : files) {
                    for (Column c :
                            ParquetTypes.columns(ParquetFileRecordReader.readSchema(file))) {
                        fixed.putIfAbsent(c.name(), c);
                    }
                }
            }
            case CSV -> {
                int budget = current == null ? SAMPLE : 0;
                for (Path file : files) {
                    budget -= sampleCsv(file, fixed, guesses, budget);
                }
            }
            case JSONL -> {
                if (current == null) {
                    int budget = SAMPLE;
                    for (Path file : files) {
                        if (budget <= 0) {
                            break;
                        }
                        budget -= sampleJsonl(file, guesses, budget);
                    }
                }
            }
        }
        List<Column> columns = new ArrayList<>(fixed.values());
        for (Map.Entry<String, TypeInference> g : guesses.entrySet()) {
            columns.add(Column.of(g.getKey(), g.getValue().type()));
        }
        if (columns.isEmpty()) {
            return current;
        }
        if (current != null) {
            List<Column> added = columns.subList(current.size(), columns.size());
            return added.isEmpty() ? current : current.withColumns(added);
        }
        return new StreamSchema(stream, columns, List.of());
    }

    /**
     * Reads the header of a CSV file; names not yet known get a guess. Samples up to {@code budget}
     * records into every guess (while the first-files budget lasts), or up to {@value #SAMPLE}
     * records into the guesses of names this file introduced. Returns the number of records sampled
     * against the budget.
     */
    private static int sampleCsv(
            Path file, Map<String, Column> fixed, Map<String, TypeInference> guesses, int budget)
            throws IOException {
        try (ByteInput in = ByteInput.open(file, 0)) {
            in.skipBom();
            CsvParser parser = new CsvParser(in);
            boolean any;
            do {
                any = parser.next();
            } while (any && parser.blank());
            if (!any
                    || (parser.error() != null && !CsvParser.INVALID_UTF8.equals(parser.error()))) {
                return 0; // empty file, or a header the reader will report row by row
            }
            List<String> names = CsvHeader.names(parser.fieldsLenient());
            TypeInference[] sampled = new TypeInference[names.size()];
            boolean introduced = false;
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                if (fixed.containsKey(name)) {
                    continue;
                }
                TypeInference guess = guesses.get(name);
                if (guess == null) {
                    guess = new TypeInference();
                    guesses.put(name, guess);
                    introduced = true;
                    sampled[i] = guess;
                } else if (budget > 0) {
                    sampled[i] = guess;
                }
            }
            int limit = budget > 0 ? budget : introduced ? SAMPLE : 0;
            int n = 0;
            while (n < limit && parser.next()) {
                if (parser.blank()) {
                    continue;
                }
                n++;
                List<String> fields = parser.fields();
                if (parser.error() != null || fields.size() != names.size()) {
                    continue;
                }
                for (int i = 0; i < sampled.length; i++) {
                    if (sampled[i] != null) {
                        sampled[i].addText(fields.get(i));
                    }
                }
            }
            return budget > 0 ? n : 0;
        }
    }

    /** Samples up to {@code budget} JSON objects of a file; returns how many lines it read. */
    private static int sampleJsonl(Path file, Map<String, TypeInference> guesses, int budget)
            throws IOException {
        int n = 0;
        try (ByteInput in = ByteInput.open(file, 0)) {
            in.skipBom();
            ByteBuf line = new ByteBuf();
            int b = in.read();
            while (b != -1 && n < budget) {
                line.reset();
                while (b != -1 && b != '\n') {
                    if (line.length() < CsvParser.MAX_RECORD_BYTES) {
                        line.append(b);
                    }
                    b = in.read();
                }
                b = in.read();
                String text = line.decodeLenient().strip();
                if (text.isEmpty()) {
                    continue;
                }
                n++;
                JsonNode node;
                try {
                    node = JsonlFileReader.MAPPER.readTree(text);
                } catch (JsonProcessingException e) {
                    continue; // the reader emits it as undecodable
                }
                if (!node.isObject()) {
                    continue;
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    TypeInference guess = guesses.get(field.getKey());
                    if (guess == null) {
                        if (field.getValue().isNull()) {
                            continue; // typed by a later non-null value
                        }
                        guess = new TypeInference();
                        guesses.put(field.getKey(), guess);
                    }
                    guess.addJson(field.getValue());
                }
            }
        }
        return n;
    }

    static String describe(StreamSchema schema) {
        StringBuilder s = new StringBuilder();
        for (Column c : schema.columns()) {
            s.append(s.length() == 0 ? "" : ", ").append(c.name()).append(' ').append(c.type());
        }
        return s.toString();
    }
}
