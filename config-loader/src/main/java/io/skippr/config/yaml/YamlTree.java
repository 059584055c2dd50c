package io.skippr.config.yaml;

import io.skippr.config.ConfigError;
import io.skippr.config.ConfigException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.comments.CommentLine;
import org.yaml.snakeyaml.comments.CommentType;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The YAML node tree of a config file, kept whole so that saving preserves key order and comments.
 * Edits change nodes in place; nothing is round-tripped through Java maps.
 */
public final class YamlTree {
    private YamlTree() {}

    /**
     * Parses one YAML document; returns null for an empty one, and an empty mapping that keeps the
     * comments for one of comments only.
     */
    public static Node parse(String text, String file) {
        try {
            Node root = yaml().compose(new StringReader(text));
            if (root instanceof MappingNode map && map.getTag().equals(Tag.COMMENT)) {
                // Only comments: snakeyaml gives an immutable placeholder; keep its comments on
                // an empty mapping that edits can add to.
                MappingNode empty = mapping();
                empty.setBlockComments(map.getBlockComments());
                return empty;
            }
            return root;
        } catch (MarkedYAMLException e) {
            throw new ConfigException(syntaxError(e, file));
        } catch (YAMLException e) {
            throw ConfigException.of(file, "invalid YAML: " + e.getMessage());
        }
    }

    /**
     * The problem in plain words, at the place to fix. Only snakeyaml's problem text is used: its
     * full message echoes the line, which may hold a secret.
     */
    private static ConfigError syntaxError(MarkedYAMLException e, String file) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String problem = e.getProblem() != null ? e.getProblem() : String.valueOf(e.getContext());
        String context = e.getContext() != null && e.getProblem() != null ? e.getContext() : "";
        String message = (context.isEmpty() ? "" : context + ", ") + problem;
        Mark start = e.getContextMark();
        if (problem.contains("\\t(TAB)")) {
            message = "a tab character; indent with spaces, not tabs";
        } else if (context.contains("quoted scalar") && problem.contains("end of stream")) {
            mark = start != null ? start : mark;
            message = "the quoted value that starts here is never closed; add the closing quote";
        } else if (problem.contains("that cannot start any token")) {
            message =
                    problem.substring(0, problem.indexOf(" that cannot"))
                            + ", which cannot start a plain value; quote the value";
        } else if (context.contains("block collection") && problem.startsWith("expected <block")) {
            message =
                    "expected a list item starting with '- ', found a key; a list and a mapping"
                            + " cannot share one level (the list starts at line "
                            + (start == null ? "?" : start.getLine() + 1)
                            + ")";
        } else if (problem.startsWith("expected <block end>") && start != null && mark != null) {
            message =
                    "bad indentation: this line is indented to column "
                            + (mark.getColumn() + 1)
                            + ", which lines up with no key above it (the keys of the enclosing"
                            + " mapping start at column "
                            + (start.getColumn() + 1)
                            + ", from line "
                            + (start.getLine() + 1)
                            + ")";
        } else if (problem.equals("mapping values are not allowed here")) {
            message =
                    "unexpected ':'; check the indentation of this line, or quote a value that"
                            + " contains ': '";
        }
        int line = mark == null ? 0 : mark.getLine() + 1;
        int column = mark == null ? 0 : mark.getColumn() + 1;
        return new ConfigError(file, line, column, "", "invalid YAML: " + message);
    }

    public static String dump(Node root) {
        if (root instanceof MappingNode map
                && map.getValue().isEmpty()
                && map.getBlockComments() != null) {
            // A file of comments only is written back as those comments, not as "{}".
            StringBuilder out = new StringBuilder();
            for (CommentLine comment : map.getBlockComments()) {
                out.append(
                                comment.getCommentType() == CommentType.BLANK_LINE
                                        ? ""
                                        : "#" + comment.getValue())
                        .append('\n');
            }
            return out.toString();
        }
        StringWriter out = new StringWriter();
        yaml().serialize(root, out);
        return out.toString();
    }

    private static Yaml yaml() {
        LoaderOptions loader = new LoaderOptions();
        loader.setProcessComments(true);
        loader.setAllowDuplicateKeys(true); // duplicates are reported by validation, with lines
        loader.setMaxAliasesForCollections(50);
        DumperOptions dumper = new DumperOptions();
        dumper.setProcessComments(true);
        dumper.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        dumper.setIndent(2);
        dumper.setIndicatorIndent(2);
        dumper.setIndentWithIndicator(true);
        dumper.setWidth(120);
        dumper.setSplitLines(false);
        return new Yaml(new SafeConstructor(loader), new Representer(dumper), dumper, loader);
    }

    public static ScalarNode string(String value) {
        return new ScalarNode(Tag.STR, value, null, null, DumperOptions.ScalarStyle.PLAIN);
    }

    public static ScalarNode integer(long value) {
        return new ScalarNode(
                Tag.INT, Long.toString(value), null, null, DumperOptions.ScalarStyle.PLAIN);
    }

    public static ScalarNode bool(boolean value) {
        return new ScalarNode(
                Tag.BOOL, Boolean.toString(value), null, null, DumperOptions.ScalarStyle.PLAIN);
    }

    public static SequenceNode strings(List<String> values) {
        List<Node> items = new ArrayList<>();
        values.forEach(v -> items.add(string(v)));
        return new SequenceNode(Tag.SEQ, items, DumperOptions.FlowStyle.BLOCK);
    }

    public static MappingNode mapping() {
        return new MappingNode(Tag.MAP, new ArrayList<>(), DumperOptions.FlowStyle.BLOCK);
    }

    /** The key's text, or null for a key that is not a scalar. */
    public static String key(NodeTuple tuple) {
        return tuple.getKeyNode() instanceof ScalarNode s ? s.getValue() : null;
    }

    public static Optional<Node> get(MappingNode map, String key) {
        return map.getValue().stream()
                .filter(t -> key.equals(key(t)))
                .map(NodeTuple::getValueNode)
                .findFirst();
    }

    /** The mapping under {@code key}, made and appended if absent. */
    public static MappingNode child(MappingNode map, String key) {
        Optional<Node> existing = get(map, key);
        if (existing.isPresent() && existing.get() instanceof MappingNode child) {
            return child;
        }
        MappingNode child = mapping();
        put(map, key, child);
        return child;
    }

    /** Sets {@code key} to {@code value}: in place if present (keeping comments), else appended. */
    public static void put(MappingNode map, String key, Node value) {
        putAt(map, map.getValue().size(), key, value);
    }

    /** Sets {@code key} to {@code value}: in place if present, else inserted at {@code index}. */
    public static void putAt(MappingNode map, int index, String key, Node value) {
        List<NodeTuple> tuples = map.getValue();
        for (int i = 0; i < tuples.size(); i++) {
            NodeTuple tuple = tuples.get(i);
            if (key.equals(key(tuple))) {
                Node old = tuple.getValueNode();
                value.setInLineComments(old.getInLineComments());
                if (old instanceof MappingNode || old instanceof SequenceNode) {
                    value.setEndComments(old.getEndComments());
                }
                tuples.set(i, new NodeTuple(tuple.getKeyNode(), value));
                return;
            }
        }
        tuples.add(Math.min(index, tuples.size()), new NodeTuple(string(key), value));
    }

    /**
     * Sets {@code key} to {@code value}; a new key goes after the last present key that comes
     * before it in {@code order}, so that hand-ordered files keep their order.
     */
    public static void putOrdered(MappingNode map, String key, Node value, List<String> order) {
        int rank = order.indexOf(key);
        int index = 0;
        List<NodeTuple> tuples = map.getValue();
        for (int i = 0; i < tuples.size(); i++) {
            int other = order.indexOf(key(tuples.get(i)));
            if (other >= 0 && other < rank) {
                index = i + 1;
            }
        }
        putAt(map, index, key, value);
    }

    public static void remove(MappingNode map, String key) {
        map.getValue().removeIf(t -> key.equals(key(t)));
    }

    public static int indexOf(MappingNode map, String key) {
        List<NodeTuple> tuples = map.getValue();
        for (int i = 0; i < tuples.size(); i++) {
            if (key.equals(key(tuples.get(i)))) {
                return i;
            }
        }
        return -1;
    }

    /** Puts a blank line before {@code key}, as between the sections of a hand-written file. */
    public static void blankLineBefore(MappingNode map, String key) {
        for (NodeTuple tuple : map.getValue()) {
            if (key.equals(key(tuple))) {
                Node keyNode = tuple.getKeyNode();
                List<CommentLine> comments = new ArrayList<>();
                comments.add(new CommentLine(null, null, "", CommentType.BLANK_LINE));
                if (keyNode.getBlockComments() != null) {
                    comments.addAll(keyNode.getBlockComments());
                }
                keyNode.setBlockComments(comments);
            }
        }
    }
}
