package io.skippr.config.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * The YAML blocks of the destinations page, and semantic comparison of YAML documents: what the
 * spec examples are checked against, in this module and in the CLI's tests.
 */
public final class SpecExamples {
    public static final String START = "start.yml";
    public static final String ADD_DESTINATION = "add-destination.yml";
    public static final String SCHEMA_SINKS = "schema-sinks.yml";
    public static final String DEADLETTER = "deadletter.yml";

    private SpecExamples() {}

    public static String text(String name) {
        try (InputStream in = SpecExamples.class.getResourceAsStream("/spec/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no spec example " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A YAML document as plain maps, lists and scalars, for semantic equality. */
    public static Map<String, Object> parse(String yaml) {
        Map<String, Object> doc = new Yaml().load(yaml);
        return doc == null ? new LinkedHashMap<>() : doc;
    }

    /**
     * {@code base} with {@code overlay} merged in: mappings merge key by key, the rest replaces.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> overlay) {
        Map<String, Object> out = new LinkedHashMap<>(base);
        overlay.forEach(
                (key, value) -> {
                    Object old = out.get(key);
                    if (old instanceof Map && value instanceof Map) {
                        out.put(key, merge((Map<String, Object>) old, (Map<String, Object>) value));
                    } else {
                        out.put(key, value);
                    }
                });
        return out;
    }

    /** The document the page shows after applying {@code blocks} to the starting file. */
    public static Map<String, Object> expected(String... blocks) {
        Map<String, Object> doc = parse(text(START));
        for (String block : blocks) {
            doc = merge(doc, parse(text(block)));
        }
        return doc;
    }

    /** The text of the starting file with {@code blocks} applied, as one YAML document. */
    public static String expectedText(String... blocks) {
        return new Yaml().dump(expected(blocks));
    }
}
