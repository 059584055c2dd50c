package io.skippr.config.model;

import org.yaml.snakeyaml.nodes.Node;

/** A 1-based line and column in the config file. */
public record Location(int line, int column) {
    public static final Location NONE = new Location(0, 0);

    public static Location of(Node node) {
        if (node == null || node.getStartMark() == null) {
            return NONE;
        }
        return new Location(node.getStartMark().getLine() + 1, node.getStartMark().getColumn() + 1);
    }
}
