package io.skippr.config;

import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Role;
import io.skippr.config.model.ConfigModel;
import io.skippr.config.model.ConfigReader;
import io.skippr.config.model.PipelineDef;
import io.skippr.config.model.PipelineKey;
import io.skippr.config.model.Suggest;
import io.skippr.config.yaml.YamlTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;

/**
 * A {@code skippr.yml} file: load it, read and change its entries, save it. Saving keeps key order
 * and comments, and writes {@code ${VAR}} references back as written; values are resolved from the
 * environment only when a run asks for them.
 */
public final class Config {
    private static final List<String> SECTION_ORDER = sectionOrder();

    private final Path path;
    private final Catalog catalog;
    private Node root;

    private Config(Path path, Node root, Catalog catalog) {
        this.path = path;
        this.root = root;
        this.catalog = catalog;
    }

    /** Loads {@code path}; YAML syntax errors are thrown here, everything else on use. */
    public static Config load(String path) {
        return load(Path.of(path));
    }

    public static Config load(Path path) {
        if (!Files.isRegularFile(path)) {
            throw ConfigException.of(path.toString(), "no such file");
        }
        try {
            String text = Files.readString(path, StandardCharsets.UTF_8);
            return parse(text, path);
        } catch (java.nio.charset.MalformedInputException e) {
            throw ConfigException.of(
                    path.toString(), "the file is not valid UTF-8; save it as" + " UTF-8");
        } catch (IOException e) {
            throw ConfigException.of(path.toString(), "cannot read the file: " + e.getMessage());
        }
    }

    /** The config found by {@link ConfigDiscovery} from the current folder and environment. */
    public static Config discover() {
        return load(ConfigDiscovery.require(null, System.getenv(), Path.of("")));
    }

    /** A config read from {@code text}, to be saved at {@code path}. */
    public static Config parse(String text, Path path) {
        return new Config(path, YamlTree.parse(text, path.toString()), Catalog.get());
    }

    /** A new, empty config to be saved at {@code path}. */
    public static Config empty(Path path) {
        return new Config(path, null, Catalog.get());
    }

    public Path path() {
        return path;
    }

    /** Validates the whole file; a {@link ConfigException} lists every mistake. */
    public ConfigModel model() {
        return ConfigReader.read(root, path.toString(), catalog);
    }

    /** The YAML text as {@link #save()} writes it. */
    public String text() {
        return root == null ? "" : YamlTree.dump(root);
    }

    public void save() {
        save(path);
    }

    public void save(Path target) {
        try {
            Path dir = target.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, ".skippr-", ".yml.tmp");
            Files.writeString(temp, text(), StandardCharsets.UTF_8);
            Files.move(
                    temp,
                    target,
                    StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw ConfigException.of(target.toString(), "cannot write the file: " + e.getMessage());
        }
    }

    public EntryRef dataSource(String name, Connector<?> source) {
        return putEntry(Section.DATA_SOURCES, name, source, null);
    }

    /**
     * Adds or replaces a data sink. A paired kind (DuckDB, AthenaIceberg, SkipprLake) also writes
     * its schema sink, under the same name, with the same settings.
     */
    public EntryRef dataSink(String name, Connector<?> sink) {
        if (sink.kind().paired()) {
            Connector.Generic schema =
                    Connector.of(catalog.get(Role.SCHEMA_SINK, sink.kind().name()));
            sink.values().forEach(schema::with);
            return dataSink(name, sink, schemaSink(name, schema));
        }
        return putEntry(Section.DATA_SINKS, name, sink, null);
    }

    /** Adds or replaces a data sink that links {@code schemaSink}. */
    public EntryRef dataSink(String name, Connector<?> sink, EntryRef schemaSink) {
        requireSection(schemaSink, Section.SCHEMA_SINKS, "schemaSink");
        return putEntry(Section.DATA_SINKS, name, sink, schemaSink);
    }

    public EntryRef schemaSink(String name, Connector<?> schemaSink) {
        return putEntry(Section.SCHEMA_SINKS, name, schemaSink, null);
    }

    /** Adds or replaces a deadletter sink: a data-sink kind, in its own entry. */
    public EntryRef deadletterSink(String name, Connector<?> sink) {
        return putEntry(Section.DEADLETTER_SINKS, name, sink, null);
    }

    /** Links the schema sink {@code schemaSink} from the data sink {@code dataSink}. */
    public void linkSchemaSink(EntryRef dataSink, EntryRef schemaSink) {
        requireSection(dataSink, Section.DATA_SINKS, "dataSink");
        requireSection(schemaSink, Section.SCHEMA_SINKS, "schemaSink");
        MappingNode entry = entryNode(dataSink);
        YamlTree.putAt(entry, 0, "schema_sink", YamlTree.string(schemaSink.toString()));
    }

    /** Adds or replaces a pipeline; it holds exactly the references {@code pipeline} gives. */
    public ConfiguredPipeline pipeline(String name, Pipeline pipeline) {
        MappingNode node = YamlTree.child(section(Section.PIPELINES), name);
        setPipelineKey(node, PipelineKey.DATA_SOURCE, pipeline.dataSource());
        setPipelineKey(node, PipelineKey.DATA_SINK, pipeline.dataSink());
        setPipelineKey(node, PipelineKey.DEADLETTER_SINK, pipeline.deadletterSink());
        setPipelineKey(node, PipelineKey.WRITE_MODE, pipeline.writeMode());
        setPipelineKey(node, PipelineKey.SOFT_DELETES, pipeline.softDeletes() ? true : null);
        return new ConfiguredPipeline(this, name);
    }

    /** Points one key of an existing pipeline, such as its data_sink, at {@code ref}. */
    public void wirePipeline(String name, PipelineKey key, EntryRef ref) {
        Node node = pipelinesNode().flatMap(p -> YamlTree.get(p, name)).orElse(null);
        if (!(node instanceof MappingNode pipelineNode)) {
            throw ConfigException.of(
                    path.toString(),
                    "pipeline '"
                            + name
                            + "' is not defined"
                            + Suggest.didYouMean(name, pipelineNames()));
        }
        setPipelineKey(pipelineNode, key, ref);
    }

    public List<String> pipelineNames() {
        List<String> names = new ArrayList<>();
        pipelinesNode().ifPresent(p -> p.getValue().forEach(t -> names.add(YamlTree.key(t))));
        return names;
    }

    public EntryRef getDataSource(String name) {
        return existing(Section.DATA_SOURCES, name);
    }

    public EntryRef getDataSink(String name) {
        return existing(Section.DATA_SINKS, name);
    }

    public EntryRef getSchemaSink(String name) {
        return existing(Section.SCHEMA_SINKS, name);
    }

    public EntryRef getDeadletterSink(String name) {
        return existing(Section.DEADLETTER_SINKS, name);
    }

    /** A validated pipeline of this config, ready for a {@code Session}. */
    public ConfiguredPipeline getPipeline(String name) {
        ConfigModel model = model();
        if (model.pipeline(name).isEmpty()) {
            throw ConfigException.of(
                    path.toString(),
                    "pipeline '"
                            + name
                            + "' is not defined"
                            + Suggest.closest(name, model.pipelines().keySet())
                                    .map(s -> "; did you mean '" + s + "'?")
                                    .orElse(
                                            model.pipelines().isEmpty()
                                                    ? "; the file has no pipelines"
                                                    : "; pipelines: "
                                                            + String.join(
                                                                    ", ",
                                                                    model.pipelines().keySet())));
        }
        return new ConfiguredPipeline(this, name);
    }

    PipelineDef pipelineDef(String name) {
        return model().pipeline(name).orElseThrow();
    }

    private EntryRef existing(Section section, String name) {
        ConfigModel model = model();
        if (model.entry(section, name).isEmpty()) {
            throw ConfigException.of(
                    path.toString(),
                    section.key()
                            + "."
                            + name
                            + " is not defined"
                            + Suggest.didYouMean(name, model.entries(section).keySet()));
        }
        return new EntryRef(section, name);
    }

    private EntryRef putEntry(
            Section section, String name, Connector<?> connector, EntryRef schemaSink) {
        if (connector.kind().role() != section.role()) {
            throw new IllegalArgumentException(
                    section.key()
                            + " take "
                            + section.role().label()
                            + " kinds, not the "
                            + connector.kind().role().label()
                            + " "
                            + connector.kind().name());
        }
        MappingNode entry = YamlTree.child(section(section), name);
        String kind = connector.kind().name();
        for (NodeTuple tuple : List.copyOf(entry.getValue())) {
            String key = YamlTree.key(tuple);
            if (!kind.equals(key) && !"schema_sink".equals(key)) {
                YamlTree.remove(entry, key);
            }
        }
        if (schemaSink != null) {
            YamlTree.putAt(entry, 0, "schema_sink", YamlTree.string(schemaSink.toString()));
        }
        Node existing = YamlTree.get(entry, kind).orElse(null);
        MappingNode fields = existing instanceof MappingNode m ? m : YamlTree.mapping();
        writeFields(connector, fields);
        YamlTree.put(entry, kind, fields);
        return new EntryRef(section, name);
    }

    private static void writeFields(Connector<?> connector, MappingNode fields) {
        Map<String, Node> wanted = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        for (Field field : connector.kind().fields()) {
            order.add(field.name());
            Object value = connector.values().get(field.name());
            if (value != null && !field.isDefault(String.valueOf(value))) {
                wanted.put(field.name(), node(value));
            }
        }
        for (NodeTuple tuple : List.copyOf(fields.getValue())) {
            String key = YamlTree.key(tuple);
            if (!wanted.containsKey(key)) {
                YamlTree.remove(fields, key);
            }
        }
        wanted.forEach((key, value) -> YamlTree.putOrdered(fields, key, value, order));
    }

    private static Node node(Object value) {
        if (value instanceof Long l) {
            return YamlTree.integer(l);
        }
        if (value instanceof Boolean b) {
            return YamlTree.bool(b);
        }
        if (value instanceof List<?> list) {
            return YamlTree.strings(list.stream().map(String::valueOf).toList());
        }
        return YamlTree.string(String.valueOf(value));
    }

    private void setPipelineKey(MappingNode node, PipelineKey key, Object value) {
        if (value == null) {
            YamlTree.remove(node, key.key());
        } else {
            YamlTree.putOrdered(
                    node,
                    key.key(),
                    value instanceof Boolean ? node(value) : YamlTree.string(value.toString()),
                    PipelineKey.keys());
        }
    }

    private MappingNode entryNode(EntryRef ref) {
        Node node = YamlTree.get(section(ref.section().key()), ref.name()).orElse(null);
        if (!(node instanceof MappingNode entry)) {
            throw ConfigException.of(path.toString(), ref + " is not defined");
        }
        return entry;
    }

    private java.util.Optional<MappingNode> pipelinesNode() {
        if (!(root instanceof MappingNode map)) {
            return java.util.Optional.empty();
        }
        return YamlTree.get(map, Section.PIPELINES)
                .filter(MappingNode.class::isInstance)
                .map(MappingNode.class::cast);
    }

    private MappingNode section(Section section) {
        return section(section.key());
    }

    /** The section's mapping, made in the canonical section order if the file lacks it. */
    private MappingNode section(String key) {
        if (root == null
                || root instanceof org.yaml.snakeyaml.nodes.ScalarNode s
                        && s.getValue().isEmpty()) {
            root = YamlTree.mapping();
        }
        if (!(root instanceof MappingNode map)) {
            throw ConfigException.of(
                    path.toString(),
                    "expected a mapping of sections at the top"
                            + " level; fix the file before changing it");
        }
        Node existing = YamlTree.get(map, key).orElse(null);
        if (existing instanceof MappingNode section) {
            return section;
        }
        if (existing != null
                && !(existing instanceof org.yaml.snakeyaml.nodes.ScalarNode s
                        && s.getTag().equals(org.yaml.snakeyaml.nodes.Tag.NULL))) {
            throw ConfigException.of(
                    path.toString(),
                    key + " is not a mapping; fix the file" + " before changing it");
        }
        MappingNode section = YamlTree.mapping();
        YamlTree.putOrdered(map, key, section, SECTION_ORDER);
        if (existing == null && YamlTree.indexOf(map, key) > 0) {
            YamlTree.blankLineBefore(map, key);
        }
        if (YamlTree.indexOf(map, key) == 0 && map.getValue().size() > 1) {
            YamlTree.blankLineBefore(map, YamlTree.key(map.getValue().get(1)));
        }
        return section;
    }

    private static void requireSection(EntryRef ref, Section section, String what) {
        if (ref == null || ref.section() != section) {
            throw new IllegalArgumentException(
                    what + " must refer to " + section.key() + ", not " + ref);
        }
    }

    private static List<String> sectionOrder() {
        List<String> order = new ArrayList<>();
        order.add(Section.PIPELINES);
        for (Section s : Section.values()) {
            order.add(s.key());
        }
        return order;
    }
}
