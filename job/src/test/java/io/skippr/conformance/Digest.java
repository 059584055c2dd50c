package io.skippr.conformance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.core.record.DataType.Kind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every column of every row in {@link Canonical} form: one line per row (a JSON array of its
 * values, in the source's column order), and an md5 over the lines in key order. The kit compares
 * the destination's digest with the source's, so a column nulled or changed in one row fails the
 * check, whatever the other columns' sums say.
 */
final class Digest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Digest() {}

    /** A source row as the destination should hold it: its documented differences applied. */
    static String expected(
            SinkFixture fixture, Map<String, Kind> columns, Map<String, Object> row) {
        List<String> values = new ArrayList<>();
        columns.forEach(
                (name, kind) -> {
                    String value = Canonical.of(kind, row.get(name));
                    values.add(value == null ? null : fixture.landed(kind, value));
                });
        return json(values);
    }

    /** A destination row: each source column under the name the destination gives it. */
    static String held(SinkFixture fixture, Map<String, Kind> columns, Map<String, Object> row) {
        List<String> values = new ArrayList<>();
        columns.forEach(
                (name, kind) -> values.add(Canonical.of(kind, row.get(fixture.column(name)))));
        return json(values);
    }

    private static String json(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The md5 of {@code lines} by key, each key's lines sorted, as 32 hex digits. */
    static String md5(Map<Long, List<String>> lines) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            new TreeMap<>(lines)
                    .forEach(
                            (key, rows) ->
                                    rows.stream()
                                            .sorted()
                                            .forEach(
                                                    line ->
                                                            md5.update(
                                                                    (key + "\t" + line + "\n")
                                                                            .getBytes(
                                                                                    StandardCharsets
                                                                                            .UTF_8))));
            return HexFormat.of().formatHex(md5.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The source's rows, a line each. */
    static Map<Long, List<String>> expected(SinkFixture fixture, SourceTable.Expected want) {
        Map<Long, List<String>> lines = new TreeMap<>();
        want.rows()
                .forEach(
                        (key, row) ->
                                lines.put(key, List.of(expected(fixture, want.columns(), row))));
        return lines;
    }

    /**
     * The destination's rows by key, a line each; with {@code distinct}, each key's copies that are
     * equal count once (for an at-least-once destination, which may hold a row twice).
     */
    static Map<Long, List<String>> held(
            SinkFixture fixture,
            Map<String, Kind> columns,
            Collection<Map<String, Object>> rows,
            boolean distinct) {
        Map<Long, List<String>> lines = new TreeMap<>();
        for (Map<String, Object> row : rows) {
            long key = ((Number) row.get("id")).longValue();
            List<String> copies = lines.computeIfAbsent(key, k -> new ArrayList<>());
            String line = held(fixture, columns, row);
            if (!distinct || !copies.contains(line)) {
                copies.add(line);
            }
        }
        return lines;
    }

    /**
     * What differs between the source's lines and the destination's, at most ten lines: a row the
     * destination holds otherwise than the source, a key it lacks, a key the source lacks.
     */
    static List<String> differences(Map<Long, List<String>> want, Map<Long, List<String>> got) {
        List<String> out = new ArrayList<>();
        Set<Long> keys = new HashSet<>(want.keySet());
        keys.addAll(got.keySet());
        for (Long key : new java.util.TreeSet<>(keys)) {
            List<String> w = want.getOrDefault(key, List.of());
            List<String> g = got.getOrDefault(key, List.of());
            if (!w.stream().sorted().toList().equals(g.stream().sorted().toList())) {
                out.add("key " + key + ": source " + w + ", destination " + g);
                if (out.size() == 10) {
                    out.add("...");
                    break;
                }
            }
        }
        return out;
    }
}
