package io.skippr.config.model;

import io.skippr.config.ConfigError;
import io.skippr.config.ConfigException;
import io.skippr.config.Section;
import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.FieldType;
import io.skippr.config.catalog.KindSpec;
import io.skippr.config.catalog.Role;
import io.skippr.config.yaml.YamlTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a config's YAML tree into a {@link ConfigModel}, checking it against the catalog. Every
 * mistake is collected, with its line and YAML path, and reported at once.
 */
public final class ConfigReader {
    static final String SCHEMA_SINK_KEY = "schema_sink";

    private final String file;
    private final Catalog catalog;
    private final List<ConfigError> errors = new ArrayList<>();
    private final Map<Section, Map<String, ConnectorEntry>> entries = new LinkedHashMap<>();
    private final Map<String, PipelineDef> pipelines = new LinkedHashMap<>();
    private final Map<String, Node> pipelineNodes = new LinkedHashMap<>();
    private final Map<ConnectorEntry, Node> schemaSinkNodes = new LinkedHashMap<>();

    /** Entries that are present but were reported as wrong, so references to them are not. */
    private final Set<String> reported = new HashSet<>();

    private ConfigReader(String file, Catalog catalog) {
        this.file = file;
        this.catalog = catalog;
    }

    /** The model of {@code root}, or a {@link ConfigException} listing every mistake. */
    public static ConfigModel read(Node root, String file, Catalog catalog) {
        ConfigReader reader = new ConfigReader(file, catalog);
        reader.readRoot(root);
        if (!reader.errors.isEmpty()) {
            throw new ConfigException(reader.errors);
        }
        return new ConfigModel(file, reader.pipelines, reader.entries);
    }

    private void readRoot(Node root) {
        if (root == null
                || root instanceof ScalarNode s && s.getTag().equals(Tag.NULL)
                || root instanceof MappingNode m && m.getValue().isEmpty()) {
            error(
                    null,
                    "",
                    "the file is empty; expected the sections pipelines and data_sources"
                            + " (and optionally data_sinks, schema_sinks, deadletter_sinks)");
            return;
        }
        if (!(root instanceof MappingNode map)) {
            error(
                    root,
                    "",
                    "expected a mapping of sections (pipelines, data_sources, ...), found "
                            + describe(root));
            return;
        }
        List<String> known = new ArrayList<>();
        known.add(Section.PIPELINES);
        for (Section s : Section.values()) {
            known.add(s.key());
            entries.put(s, new LinkedHashMap<>());
        }
        Node pipelinesNode = null;
        Map<String, Node> seen = new HashMap<>();
        for (NodeTuple tuple : map.getValue()) {
            String key = keyOf(tuple, "");
            if (key == null) {
                continue;
            }
            if (seen.containsKey(key)) {
                error(
                        tuple.getKeyNode(),
                        key,
                        "duplicate section (first at line "
                                + Location.of(seen.get(key)).line()
                                + ")");
                continue;
            }
            seen.put(key, tuple.getKeyNode());
            if (key.equals(Section.PIPELINES)) {
                pipelinesNode = tuple.getValueNode();
            } else if (Section.byKey(key).isPresent()) {
                readSection(Section.byKey(key).get(), tuple.getValueNode());
            } else {
                error(
                        tuple.getKeyNode(),
                        key,
                        "unknown section; expected one of "
                                + String.join(", ", known)
                                + Suggest.didYouMean(key, known));
            }
        }
        readPipelines(pipelinesNode);
        checkSchemaSinkLinks();
    }

    private void readSection(Section section, Node node) {
        MappingNode map =
                mappingOrEmpty(
                        node,
                        section.key(),
                        "a mapping of " + section.label() + " names to entries");
        if (map == null) {
            return;
        }
        Map<String, ConnectorEntry> sectionEntries = entries.get(section);
        Map<String, Node> seen = new HashMap<>();
        for (NodeTuple tuple : map.getValue()) {
            String name = keyOf(tuple, section.key());
            if (name == null) {
                continue;
            }
            String path = section.key() + "." + name;
            if (seen.containsKey(name)) {
                error(
                        tuple.getKeyNode(),
                        path,
                        "duplicate "
                                + section.label()
                                + " name '"
                                + name
                                + "' (first defined at line "
                                + Location.of(seen.get(name)).line()
                                + ")");
                continue;
            }
            seen.put(name, tuple.getKeyNode());
            if (!name.matches("[A-Za-z_][A-Za-z0-9_-]*")) {
                error(
                        tuple.getKeyNode(),
                        path,
                        "invalid name '"
                                + name
                                + "'; names are letters,"
                                + " digits, _ and -, not starting with a digit or -");
                reported.add(path);
                continue;
            }
            ConnectorEntry entry = readEntry(section, name, tuple);
            if (entry != null) {
                sectionEntries.put(name, entry);
            } else {
                reported.add(path);
            }
        }
    }

    private ConnectorEntry readEntry(Section section, String name, NodeTuple tuple) {
        String path = section.key() + "." + name;
        Role role = section.role();
        List<String> kindNames = catalog.kinds(role).stream().map(KindSpec::name).toList();
        if (!(tuple.getValueNode() instanceof MappingNode map) || map.getValue().isEmpty()) {
            error(
                    tuple.getValueNode(),
                    path,
                    "expected a connector kind such as "
                            + example(role)
                            + ", found "
                            + describe(tuple.getValueNode()));
            return null;
        }
        Node schemaSink = null;
        List<NodeTuple> kindTuples = new ArrayList<>();
        for (NodeTuple t : map.getValue()) {
            String key = keyOf(t, path);
            if (key == null) {
                continue;
            }
            if (key.equals(SCHEMA_SINK_KEY)) {
                if (section != Section.DATA_SINKS) {
                    error(t.getKeyNode(), path + "." + key, "only data sinks link a schema sink");
                } else {
                    schemaSink = t.getValueNode();
                }
                continue;
            }
            kindTuples.add(t);
        }
        if (kindTuples.isEmpty()) {
            error(
                    map,
                    path,
                    "missing the connector kind; expected one of " + String.join(", ", kindNames));
            return null;
        }
        List<NodeTuple> strays = strayFields(role, kindTuples);
        if (!strays.isEmpty() && strays.size() == kindTuples.size()) {
            List<String> keys = strays.stream().map(YamlTree::key).toList();
            error(
                    strays.get(0).getKeyNode(),
                    path,
                    "missing the connector kind: found the settings "
                            + String.join(", ", keys)
                            + " directly under the entry; put them under a kind, as in "
                            + path
                            + "."
                            + exampleFor(role, keys)
                            + "."
                            + keys.get(0));
            return null;
        }
        kindTuples.removeAll(strays);
        String under = kindTuples.size() == 1 ? YamlTree.key(kindTuples.get(0)) : "the kind";
        for (NodeTuple stray : strays) {
            error(
                    stray.getKeyNode(),
                    path + "." + YamlTree.key(stray),
                    "'"
                            + YamlTree.key(stray)
                            + "' is a setting, not a connector kind; indent it under "
                            + under);
        }
        if (kindTuples.size() > 1) {
            error(
                    kindTuples.get(1).getKeyNode(),
                    path,
                    "expected exactly one connector kind, found "
                            + kindTuples.stream()
                                    .map(YamlTree::key)
                                    .collect(Collectors.joining(" and ")));
            return null;
        }
        NodeTuple kindTuple = kindTuples.get(0);
        String kindName = YamlTree.key(kindTuple);
        KindSpec kind = catalog.find(role, kindName).orElse(null);
        if (kind == null) {
            error(
                    kindTuple.getKeyNode(),
                    path + "." + kindName,
                    unknownKind(section, kindName, kindNames));
            return null;
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        Map<String, Location> locations = new HashMap<>();
        readFields(kind, path + "." + kindName, kindTuple.getValueNode(), settings, locations);
        ConnectorEntry entry =
                new ConnectorEntry(
                        section,
                        name,
                        kind,
                        settings,
                        null,
                        Location.of(tuple.getKeyNode()),
                        locations);
        if (schemaSink != null) {
            schemaSinkNodes.put(entry, schemaSink);
        }
        return entry;
    }

    /** Keys next to (or instead of) the kind that are settings of some kind of {@code role}. */
    private List<NodeTuple> strayFields(Role role, List<NodeTuple> keys) {
        Set<String> fields = new HashSet<>();
        catalog.kinds(role).forEach(k -> k.fields().forEach(f -> fields.add(f.name())));
        return keys.stream()
                .filter(t -> fields.contains(YamlTree.key(t)))
                .filter(t -> catalog.rolesOf(YamlTree.key(t)).isEmpty())
                .toList();
    }

    /** A kind of {@code role} that has all of {@code fields}, preferring the usual example. */
    private String exampleFor(Role role, List<String> fields) {
        List<KindSpec> kinds = new ArrayList<>(catalog.find(role, example(role)).stream().toList());
        kinds.addAll(catalog.kinds(role));
        return kinds.stream()
                .filter(k -> fields.stream().allMatch(f -> k.field(f).isPresent()))
                .map(KindSpec::name)
                .findFirst()
                .orElse(example(role));
    }

    /** The closest name, or one that {@code input} extends or abbreviates (hostname, host). */
    private static Optional<String> closestName(String input, List<String> names) {
        return Suggest.closest(input, names)
                .or(
                        () ->
                                names.stream()
                                        .filter(n -> n.length() >= 3 && input.length() >= 3)
                                        .filter(n -> input.startsWith(n) || n.startsWith(input))
                                        .findFirst());
    }

    private String unknownKind(Section section, String kindName, List<String> kindNames) {
        List<Role> roles = catalog.rolesOf(kindName);
        if (!roles.isEmpty()) {
            return kindName
                    + " is a "
                    + roles.stream().map(Role::label).collect(Collectors.joining(" and "))
                    + " kind, not a "
                    + section.role().label()
                    + " kind; "
                    + section.key()
                    + " take "
                    + String.join(", ", kindNames);
        }
        if (kindName.matches("[a-z0-9_]+")
                && kindNames.stream().noneMatch(k -> k.equalsIgnoreCase(kindName))) {
            return "expected a connector kind such as "
                    + example(section.role())
                    + ", found the key '"
                    + kindName
                    + "' (settings go under the kind: "
                    + "name: { "
                    + example(section.role())
                    + ": { "
                    + kindName
                    + ": ... } })";
        }
        return "unknown "
                + section.role().label()
                + " kind '"
                + kindName
                + "'"
                + Suggest.closest(kindName, kindNames)
                        .map(s -> "; did you mean '" + s + "'?")
                        .orElse("; expected one of " + String.join(", ", kindNames));
    }

    private void readFields(
            KindSpec kind,
            String path,
            Node node,
            Map<String, Object> settings,
            Map<String, Location> locations) {
        MappingNode map = mappingOrEmpty(node, path, "a mapping of " + kind.name() + " settings");
        if (map == null) {
            return;
        }
        List<String> fieldNames = kind.fields().stream().map(Field::name).toList();
        Map<String, Node> seen = new HashMap<>();
        for (NodeTuple tuple : map.getValue()) {
            String key = keyOf(tuple, path);
            if (key == null) {
                continue;
            }
            String fieldPath = path + "." + key;
            if (seen.containsKey(key)) {
                error(
                        tuple.getKeyNode(),
                        fieldPath,
                        "duplicate field (first at line "
                                + Location.of(seen.get(key)).line()
                                + ")");
                continue;
            }
            seen.put(key, tuple.getKeyNode());
            Field field = kind.field(key).orElse(null);
            if (field == null) {
                error(
                        tuple.getKeyNode(),
                        fieldPath,
                        "unknown field for "
                                + kind.name()
                                + closestName(key, fieldNames)
                                        .map(s -> "; did you mean '" + s + "'?")
                                        .orElse(
                                                fieldNames.isEmpty()
                                                        ? "; " + kind.name() + " takes no fields"
                                                        : "; expected one of "
                                                                + String.join(", ", fieldNames)));
                continue;
            }
            locations.put(key, Location.of(tuple.getValueNode()));
            Object value = readValue(field, fieldPath, tuple.getValueNode());
            if (value != null) {
                settings.put(key, value);
            }
        }
        for (Field field : kind.fields()) {
            if (field.isRequired()
                    && !settings.containsKey(field.name())
                    && !hasError(path + "." + field.name())) {
                error(
                        map.getValue().isEmpty() ? node : map,
                        path,
                        "missing required field '"
                                + field.name()
                                + "' ("
                                + field.description()
                                + ")");
            }
        }
    }

    /** The field's value as String, Long, Boolean or List; null after an error or for null. */
    private Object readValue(Field field, String path, Node node) {
        if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.NULL)) {
            if (field.isRequired()) {
                error(node, path, "expected " + field.expected() + ", found no value");
            }
            return null;
        }
        if (field.type() == FieldType.STRING_LIST) {
            if (!(node instanceof SequenceNode seq)) {
                error(
                        node,
                        path,
                        "expected a list of strings (one per line, each starting with"
                                + " '- '), found "
                                + describe(node, field));
                return null;
            }
            List<String> items = new ArrayList<>();
            for (int i = 0; i < seq.getValue().size(); i++) {
                Node item = seq.getValue().get(i);
                String itemPath = path + "[" + i + "]";
                if (!(item instanceof ScalarNode s)
                        || s.getTag().equals(Tag.NULL)
                        || s.getValue().isBlank()) {
                    error(
                            item,
                            itemPath,
                            "expected a non-empty string in the list, found "
                                    + describe(item, field));
                } else if (wellFormed(item, itemPath, s.getValue())) {
                    items.add(s.getValue());
                }
            }
            return items;
        }
        if (!(node instanceof ScalarNode scalar)) {
            error(node, path, "expected " + field.expected() + ", found " + describe(node, field));
            return null;
        }
        String text = scalar.getValue();
        if (!wellFormed(node, path, text)) {
            return null;
        }
        if (EnvRefs.contains(text)) {
            if (field.type() != FieldType.STRING && !EnvRefs.isWhole(text)) {
                error(
                        node,
                        path,
                        "expected "
                                + field.expected()
                                + " or one ${VAR} reference,"
                                + " found "
                                + describe(node, field));
                return null;
            }
            return text;
        }
        switch (field.type()) {
            case INTEGER -> {
                if (!scalar.getTag().equals(Tag.INT)) {
                    error(node, path, "expected an integer, found " + describe(node, field));
                    return null;
                }
                try {
                    return Long.parseLong(text.replace("_", ""));
                } catch (NumberFormatException e) {
                    error(node, path, "expected an integer, found " + describe(node, field));
                    return null;
                }
            }
            case BOOLEAN -> {
                if (!scalar.getTag().equals(Tag.BOOL)) {
                    error(node, path, "expected true or false, found " + describe(node, field));
                    return null;
                }
                return text.equalsIgnoreCase("true")
                        || text.equalsIgnoreCase("yes")
                        || text.equalsIgnoreCase("on");
            }
            default -> {
                if (!field.choices().isEmpty() && !field.choices().contains(text)) {
                    error(
                            node,
                            path,
                            "expected "
                                    + field.expected()
                                    + ", found "
                                    + describe(node, field)
                                    + Suggest.didYouMean(text, field.choices()));
                    return null;
                }
                if (text.isEmpty() && field.isRequired()) {
                    error(node, path, "expected " + field.expected() + ", found an empty string");
                    return null;
                }
                return text;
            }
        }
    }

    private boolean wellFormed(Node node, String path, String text) {
        if (!EnvRefs.wellFormed(text)) {
            error(
                    node,
                    path,
                    "malformed environment variable reference; write ${NAME}, with a"
                            + " name of letters, digits and _");
            return false;
        }
        return true;
    }

    private void readPipelines(Node node) {
        if (node == null) {
            return;
        }
        MappingNode map =
                mappingOrEmpty(
                        node, Section.PIPELINES, "a mapping of pipeline names" + " to pipelines");
        if (map == null) {
            return;
        }
        for (NodeTuple tuple : map.getValue()) {
            String name = keyOf(tuple, Section.PIPELINES);
            if (name == null) {
                continue;
            }
            String path = Section.PIPELINES + "." + name;
            if (pipelineNodes.containsKey(name)) {
                error(
                        tuple.getKeyNode(),
                        path,
                        "duplicate pipeline name '"
                                + name
                                + "' (first defined at line "
                                + Location.of(pipelineNodes.get(name)).line()
                                + ")");
                continue;
            }
            pipelineNodes.put(name, tuple.getKeyNode());
            if (!name.matches("[A-Za-z_][A-Za-z0-9_-]*")) {
                error(
                        tuple.getKeyNode(),
                        path,
                        "invalid name '"
                                + name
                                + "'; names are letters,"
                                + " digits, _ and -, not starting with a digit or -");
                continue;
            }
            PipelineDef pipeline = readPipeline(name, path, tuple);
            if (pipeline != null) {
                pipelines.put(name, pipeline);
            }
        }
    }

    private PipelineDef readPipeline(String name, String path, NodeTuple tuple) {
        if (!(tuple.getValueNode() instanceof MappingNode map)) {
            error(
                    tuple.getValueNode(),
                    path,
                    "expected a mapping with data_source (and optionally"
                            + " data_sink, deadletter_sink, write_mode, soft_deletes), found "
                            + describe(tuple.getValueNode()));
            return null;
        }
        Map<String, String> refs = new HashMap<>();
        Map<String, Node> keys = new HashMap<>();
        for (NodeTuple t : map.getValue()) {
            String key = keyOf(t, path);
            if (key == null) {
                continue;
            }
            String keyPath = path + "." + key;
            if (keys.containsKey(key)) {
                error(
                        t.getKeyNode(),
                        keyPath,
                        "duplicate key (first at line " + Location.of(keys.get(key)).line() + ")");
                continue;
            }
            keys.put(key, t.getKeyNode());
            PipelineKey pipelineKey = PipelineKey.byKey(key).orElse(null);
            if (pipelineKey == null) {
                error(
                        t.getKeyNode(),
                        keyPath,
                        "unknown pipeline key; expected one of "
                                + String.join(", ", PipelineKey.keys())
                                + Suggest.didYouMean(key, PipelineKey.keys()));
                continue;
            }
            String value =
                    pipelineKey == PipelineKey.SOFT_DELETES
                            ? choice(t.getValueNode(), keyPath, List.of("true", "false"))
                            : pipelineKey.section() == null
                                    ? choice(t.getValueNode(), keyPath, PipelineKey.WRITE_MODES)
                                    : reference(t.getValueNode(), keyPath, pipelineKey.section());
            if (value != null) {
                refs.put(key, value);
            }
        }
        if (!keys.containsKey(PipelineKey.DATA_SOURCE.key())) {
            error(
                    tuple.getKeyNode(),
                    path,
                    "missing data_source; a pipeline reads from one entry"
                            + " of data_sources, such as data_source: data_sources."
                            + entries.get(Section.DATA_SOURCES).keySet().stream()
                                    .findFirst()
                                    .orElse("app_db"));
        }
        PipelineDef def =
                new PipelineDef(
                        name,
                        refs.get(PipelineKey.DATA_SOURCE.key()),
                        refs.get(PipelineKey.DATA_SINK.key()),
                        refs.get(PipelineKey.DEADLETTER_SINK.key()),
                        refs.get(PipelineKey.WRITE_MODE.key()),
                        "true".equals(refs.get(PipelineKey.SOFT_DELETES.key())),
                        Location.of(tuple.getKeyNode()));
        checkDeadletterSink(def, map);
        checkSoftDeletes(def, map);
        return def;
    }

    /**
     * {@code soft_deletes} marks the rows change data capture deletes: it needs a source whose rows
     * carry deletes ({@code replication_method: cdc}) and a write mode that keeps rows by key.
     */
    private void checkSoftDeletes(PipelineDef def, MappingNode map) {
        if (!def.softDeletes()) {
            return;
        }
        Node at = YamlTree.get(map, PipelineKey.SOFT_DELETES.key()).orElse(map);
        ConnectorEntry sink =
                def.dataSink() == null ? null : entries.get(Section.DATA_SINKS).get(def.dataSink());
        String path = Section.PIPELINES + "." + def.name() + "." + PipelineKey.SOFT_DELETES.key();
        ConnectorEntry source =
                def.dataSource() == null
                        ? null
                        : entries.get(Section.DATA_SOURCES).get(def.dataSource());
        if (source != null
                && !"cdc".equals(String.valueOf(source.settings().get("replication_method")))) {
            error(
                    at,
                    path,
                    "soft_deletes marks the rows change data capture deletes, and data_sources."
                            + def.dataSource()
                            + " does not read changes: set replication_method: cdc on it (a"
                            + " Postgres source), or remove soft_deletes");
        } else if (sink != null && sink.kind().name().equals("Synapse")) {
            error(
                    at,
                    path,
                    "soft_deletes is not supported by data_sinks."
                            + def.dataSink()
                            + " (Synapse): remove soft_deletes, or load into another"
                            + " destination");
        } else if ("replace".equals(def.writeMode())) {
            error(
                    at,
                    path,
                    "soft_deletes applies to write_mode merge (a delete sets _skippr_deleted on"
                            + " the key's row) and append (every change row carries"
                            + " _skippr_deleted), not replace: remove soft_deletes, or use"
                            + " write_mode merge");
        }
    }

    private void checkDeadletterSink(PipelineDef def, MappingNode map) {
        if (def.dataSink() == null || def.deadletterSink() == null) {
            return;
        }
        ConnectorEntry sink = entries.get(Section.DATA_SINKS).get(def.dataSink());
        ConnectorEntry deadletter = entries.get(Section.DEADLETTER_SINKS).get(def.deadletterSink());
        if (sink == null
                || deadletter == null
                || !sink.kind().name().equals(deadletter.kind().name())) {
            return;
        }
        Node at = YamlTree.get(map, PipelineKey.DEADLETTER_SINK.key()).orElse(map);
        String path =
                Section.PIPELINES + "." + def.name() + "." + PipelineKey.DEADLETTER_SINK.key();
        if (sink.settings().equals(deadletter.settings())) {
            error(
                    at,
                    path,
                    "deadletter_sinks."
                            + def.deadletterSink()
                            + " writes to the same destination"
                            + " as the pipeline's data_sink data_sinks."
                            + def.dataSink()
                            + "; a deadletter sink must be a separate destination");
        } else if (where(sink).equals(where(deadletter))) {
            error(
                    at,
                    path,
                    "deadletter_sinks."
                            + def.deadletterSink()
                            + " writes into the same folder or prefix as the pipeline's data_sink"
                            + " data_sinks."
                            + def.dataSink()
                            + ", where their commit records would mix; give the deadletter sink"
                            + " a folder or prefix of its own");
        }
    }

    /** Fields that shape a file sink's files, not where they go. */
    private static final java.util.Set<String> FILE_SHAPE =
            java.util.Set.of("format", "compression", "roll_size_mb", "roll_interval_seconds");

    /** An entry's settings without those that only shape its files: where it writes. */
    private static Map<String, Object> where(ConnectorEntry entry) {
        Map<String, Object> where = new java.util.TreeMap<>(entry.settings());
        where.keySet().removeAll(FILE_SHAPE);
        return where;
    }

    private String choice(Node node, String path, List<String> choices) {
        if (node instanceof ScalarNode s && choices.contains(s.getValue())) {
            return s.getValue();
        }
        String found = node instanceof ScalarNode s ? "'" + s.getValue() + "'" : describe(node);
        error(
                node,
                path,
                "expected one of "
                        + String.join(", ", choices)
                        + ", found "
                        + found
                        + (node instanceof ScalarNode s
                                ? Suggest.didYouMean(s.getValue(), choices)
                                : ""));
        return null;
    }

    /** The entry name of a reference such as data_sinks.warehouse, or null after an error. */
    private String reference(Node node, String path, Section expected) {
        String example = expected.key() + ".<name>";
        Map<String, ConnectorEntry> targets = entries.get(expected);
        if (!(node instanceof ScalarNode scalar) || scalar.getTag().equals(Tag.NULL)) {
            error(node, path, "expected a reference like " + example + ", found " + describe(node));
            return null;
        }
        String text = scalar.getValue();
        int dot = text.indexOf('.');
        if (dot < 0) {
            String hint =
                    targets.containsKey(text)
                            ? "; did you mean " + expected.key() + "." + text + "?"
                            : "";
            error(
                    node,
                    path,
                    "expected a reference like " + example + ", found '" + text + "'" + hint);
            return null;
        }
        String sectionKey = text.substring(0, dot);
        String name = text.substring(dot + 1);
        if (!sectionKey.equals(expected.key())) {
            if (Section.byKey(sectionKey).isPresent()) {
                String advice =
                        expected == Section.DEADLETTER_SINKS
                                        && sectionKey.equals(Section.DATA_SINKS.key())
                                ? "; a deadletter sink must be a separate entry from the pipeline's"
                                        + " data_sink, declared under deadletter_sinks"
                                : "";
                error(
                        node,
                        path,
                        "expected a reference into "
                                + expected.key()
                                + ", found a"
                                + " reference into "
                                + sectionKey
                                + " ('"
                                + text
                                + "')"
                                + advice);
            } else {
                error(
                        node,
                        path,
                        "expected a reference like "
                                + example
                                + ", found '"
                                + text
                                + "'"
                                + Suggest.closest(sectionKey, List.of(expected.key()))
                                        .map(s -> "; did you mean " + s + "." + name + "?")
                                        .orElse(""));
            }
            return null;
        }
        if (!targets.containsKey(name)) {
            if (reported.contains(text)) {
                return null; // the entry itself is wrong, and reported where it is
            }
            String hint =
                    Suggest.closest(name, targets.keySet())
                            .map(s -> "; did you mean " + expected.key() + "." + s + "?")
                            .orElse(
                                    targets.isEmpty()
                                            ? "; " + expected.key() + " has no entries"
                                            : "; "
                                                    + expected.key()
                                                    + " has "
                                                    + String.join(", ", targets.keySet()));
            error(node, path, "'" + text + "' is not defined" + hint);
            return null;
        }
        return name;
    }

    /** Resolves each data sink's schema_sink, once every section has been read. */
    private void checkSchemaSinkLinks() {
        schemaSinkNodes.forEach(
                (unlinked, node) -> {
                    String path = unlinked.ref() + "." + SCHEMA_SINK_KEY;
                    String schemaSinkName = reference(node, path, Section.SCHEMA_SINKS);
                    if (schemaSinkName == null) {
                        return;
                    }
                    ConnectorEntry sink =
                            new ConnectorEntry(
                                    unlinked.section(),
                                    unlinked.name(),
                                    unlinked.kind(),
                                    unlinked.settings(),
                                    schemaSinkName,
                                    unlinked.location(),
                                    unlinked.fieldLocations());
                    entries.get(Section.DATA_SINKS).put(sink.name(), sink);
                    KindSpec kind = sink.kind();
                    if (!kind.takesSchemaSink()) {
                        error(
                                node,
                                path,
                                kind.name()
                                        + " data sinks take no schema sink; remove"
                                        + " schema_sink");
                        return;
                    }
                    ConnectorEntry schema = entries.get(Section.SCHEMA_SINKS).get(schemaSinkName);
                    if (!kind.schemaSinks().contains(schema.kind().name())) {
                        error(
                                node,
                                path,
                                kind.name()
                                        + " data sinks take a "
                                        + String.join(" or ", kind.schemaSinks())
                                        + " schema sink, found schema_sinks."
                                        + schema.name()
                                        + " of kind "
                                        + schema.kind().name());
                        return;
                    }
                    if (kind.paired()) {
                        checkPairedCopies(sink, schema);
                    }
                });
    }

    private void checkPairedCopies(ConnectorEntry sink, ConnectorEntry schema) {
        for (Field field : sink.kind().fields()) {
            Object a = sink.settings().get(field.name());
            Object b = schema.settings().get(field.name());
            if (!normalised(field, a).equals(normalised(field, b))) {
                String values = field.isSecret() ? "" : " (" + show(a) + " vs " + show(b) + ")";
                ConfigError err =
                        new ConfigError(
                                file,
                                schema.locationOf(field.name()).line(),
                                schema.locationOf(field.name()).column(),
                                schema.path() + "." + field.name(),
                                "differs from "
                                        + sink.path()
                                        + "."
                                        + field.name()
                                        + values
                                        + "; the paired "
                                        + sink.kind().name()
                                        + " data sink and schema sink must"
                                        + " hold identical settings, and Skippr refuses to run until they do");
                errors.add(err);
            }
        }
    }

    private static String normalised(Field field, Object value) {
        if (value == null) {
            return field.defaultValue() == null ? "" : field.defaultValue();
        }
        return String.valueOf(value);
    }

    private static String show(Object value) {
        return value == null ? "not set" : "'" + value + "'";
    }

    private MappingNode mappingOrEmpty(Node node, String path, String expected) {
        if (node instanceof MappingNode map) {
            return map;
        }
        if (node instanceof ScalarNode s && s.getTag().equals(Tag.NULL)) {
            return YamlTree.mapping();
        }
        error(node, path, "expected " + expected + ", found " + describe(node));
        return null;
    }

    private String keyOf(NodeTuple tuple, String path) {
        String key = YamlTree.key(tuple);
        if (key == null || tuple.getKeyNode().getTag().equals(Tag.NULL) || key.isEmpty()) {
            error(
                    tuple.getKeyNode(),
                    path,
                    "expected a name as the key, found " + describe(tuple.getKeyNode()));
            return null;
        }
        return key;
    }

    private static String example(Role role) {
        return switch (role) {
            case DATA_SOURCE -> "Postgres";
            case DATA_SINK -> "Postgres";
            case SCHEMA_SINK -> "Glue";
        };
    }

    private static String describe(Node node) {
        return describe(node, null);
    }

    /** What a node holds, for messages; a secret's value is never shown. */
    private static String describe(Node node, Field field) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof ScalarNode s) {
            if (s.getTag().equals(Tag.NULL)) {
                return "no value";
            }
            if (field != null && field.isSecret()) {
                return "a value that is not shown because the field is secret";
            }
            String text = s.getValue();
            if (text.length() > 60) {
                text = text.substring(0, 57) + "...";
            }
            return "'" + text + "'";
        }
        return "nothing";
    }

    private boolean hasError(String path) {
        return errors.stream().anyMatch(e -> e.path().equals(path));
    }

    private void error(Node node, String path, String message) {
        Location at = Location.of(node);
        errors.add(new ConfigError(file, at.line(), at.column(), path, message));
    }
}
