package io.skippr.config;

import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.KindSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Edits sent by another language's API (the Python {@code skippr} package) and applied, in order,
 * through this Java API: one config plane, so comments, key order, validation and the secret rules
 * are this loader's. A document is a map with one key, {@code edits}, a list of maps:
 *
 * <ul>
 *   <li>{@code {op: data_source | data_sink | schema_sink | deadletter_sink, name, kind, fields,
 *       schema_sink?}}: adds or replaces an entry; {@code fields} maps field names to strings,
 *       integers, booleans, lists of strings, or {@code {env: NAME}} for an {@link EnvRef}; {@code
 *       schema_sink} names a schema sink to link;
 *   <li>{@code {op: pipeline, name, data_source, data_sink?, deadletter_sink?, write_mode?,
 *       soft_deletes?}}: adds or replaces a pipeline; references are {@code {section, name}} maps;
 *   <li>{@code {op: get, section, name}}: requires that the entry exists.
 * </ul>
 *
 * A mistake stops at the edit that makes it, with the loader's own message, and a file the edits
 * leave the loader refusing (a pipeline's settings that its entries do not allow, such as {@code
 * soft_deletes} with a source that reads no changes) fails with the loader's messages; either way
 * nothing is saved.
 */
public final class ConfigEdits {
    private ConfigEdits() {}

    /** Applies the document {@code text} (JSON, or YAML) to {@code config}; does not save. */
    public static void apply(Config config, String text) {
        Object document;
        try {
            document = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        } catch (YAMLException e) {
            throw invalid(config, "the edits document cannot be read: " + e.getMessage());
        }
        apply(config, document);
    }

    /** Applies {@code document} (JSON or YAML, parsed) to {@code config}; does not save. */
    public static void apply(Config config, Object document) {
        if (!(document instanceof Map<?, ?> map) || !(map.get("edits") instanceof List<?> edits)) {
            throw invalid(config, "the edits document is a map with a list under 'edits'");
        }
        int n = 0;
        for (Object edit : edits) {
            n++;
            if (!(edit instanceof Map<?, ?> e)) {
                throw invalid(config, "edit " + n + " is not a map");
            }
            try {
                applyOne(config, e);
            } catch (IllegalArgumentException ex) {
                throw ConfigException.of(config.path().toString(), ex.getMessage());
            }
        }
        // what no single edit shows: a pipeline's settings against the entries it names
        config.model();
    }

    private static void applyOne(Config config, Map<?, ?> edit) {
        String op = text(edit, "op");
        switch (op) {
            case "data_source", "data_sink", "schema_sink", "deadletter_sink" ->
                    entry(config, op, edit);
            case "pipeline" -> pipeline(config, edit);
            case "get" -> ref(config, edit);
            default -> throw new IllegalArgumentException("unknown edit '" + op + "'");
        }
    }

    private static void entry(Config config, String op, Map<?, ?> edit) {
        Section section = Section.valueOf(op.toUpperCase() + "S");
        String name = text(edit, "name");
        KindSpec kind = Catalog.get().get(section.role(), text(edit, "kind"));
        Connector.Generic connector = Connector.of(kind);
        Object fields = edit.get("fields");
        if (fields instanceof Map<?, ?> values) {
            values.forEach((field, value) -> connector.with(field.toString(), value(value)));
        }
        switch (section) {
            case DATA_SOURCES -> config.dataSource(name, connector);
            case SCHEMA_SINKS -> config.schemaSink(name, connector);
            case DEADLETTER_SINKS -> config.deadletterSink(name, connector);
            case DATA_SINKS -> {
                Object schema = edit.get("schema_sink");
                if (schema == null) {
                    config.dataSink(name, connector);
                } else {
                    config.dataSink(name, connector, config.getSchemaSink(schema.toString()));
                }
            }
            default -> throw new IllegalStateException(section.toString());
        }
    }

    private static void pipeline(Config config, Map<?, ?> edit) {
        Object mode = edit.get("write_mode");
        config.pipeline(
                text(edit, "name"),
                new Pipeline(
                        optionalRef(config, edit.get("data_source")),
                        optionalRef(config, edit.get("data_sink")),
                        optionalRef(config, edit.get("deadletter_sink")),
                        mode == null ? null : mode.toString(),
                        Boolean.TRUE.equals(edit.get("soft_deletes"))));
    }

    private static EntryRef optionalRef(Config config, Object ref) {
        return ref instanceof Map<?, ?> r ? ref(config, r) : null;
    }

    /** The existing entry a {@code {section, name}} map names. */
    private static EntryRef ref(Config config, Map<?, ?> ref) {
        String section = text(ref, "section");
        String name = text(ref, "name");
        return switch (section) {
            case "data_sources" -> config.getDataSource(name);
            case "data_sinks" -> config.getDataSink(name);
            case "schema_sinks" -> config.getSchemaSink(name);
            case "deadletter_sinks" -> config.getDeadletterSink(name);
            default -> throw new IllegalArgumentException("unknown section '" + section + "'");
        };
    }

    /** A field's value as the Java API takes it: an {@code {env: NAME}} map is an EnvRef. */
    private static Object value(Object value) {
        if (value instanceof Map<?, ?> map && map.size() == 1 && map.containsKey("env")) {
            return new EnvRef(String.valueOf(map.get("env")));
        }
        if (value instanceof List<?> list) {
            List<String> strings = new ArrayList<>();
            list.forEach(v -> strings.add(String.valueOf(v)));
            return strings;
        }
        return value;
    }

    private static String text(Map<?, ?> map, String key) {
        Object value = map.get(key);
        if (value == null) {
            // the edit itself is not shown: its fields may hold a secret
            throw new IllegalArgumentException(
                    "an edit"
                            + (map.get("op") == null ? "" : " '" + map.get("op") + "'")
                            + " has no '"
                            + key
                            + "'");
        }
        return value.toString();
    }

    private static ConfigException invalid(Config config, String message) {
        return ConfigException.of(config.path().toString(), message);
    }
}
