package io.skippr.sinks.synapse;

import java.util.ArrayList;
import java.util.List;

/** The parts of a name the dialect quoted: {@code "s"."t"} is {@code s} and {@code t}. */
final class SynapseNames {
    private SynapseNames() {}

    static List<String> parts(String qualified) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < qualified.length(); i++) {
            char ch = qualified.charAt(i);
            if (quoted) {
                if (ch == '"') {
                    if (i + 1 < qualified.length() && qualified.charAt(i + 1) == '"') {
                        part.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    part.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == '.') {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(ch);
            }
        }
        parts.add(part.toString());
        return parts;
    }
}
