package io.skippr.sources.localfile;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Column names from a CSV header row. */
final class CsvHeader {
    private CsvHeader() {}

    /**
     * The header's names made usable: an empty name becomes {@code column_<n>} (n from 1), a
     * repeated name gets {@code _2}, {@code _3} … appended.
     */
    static List<String> names(List<String> header) {
        List<String> out = new ArrayList<>(header.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i);
            if (name == null || name.isEmpty()) {
                name = "column_" + (i + 1);
            }
            String unique = name;
            for (int k = 2; !seen.add(unique); k++) {
                unique = name + "_" + k;
            }
            out.add(unique);
        }
        return out;
    }
}
