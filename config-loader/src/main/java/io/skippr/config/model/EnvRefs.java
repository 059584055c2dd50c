package io.skippr.config.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code ${VAR}} references inside config values. */
public final class EnvRefs {
    private static final Pattern REF = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private EnvRefs() {}

    public static boolean contains(String value) {
        return value.contains("${");
    }

    /** Whether the whole value is one reference, such as {@code ${PORT}}. */
    public static boolean isWhole(String value) {
        return REF.matcher(value).matches();
    }

    /** Names referenced by {@code value}, in order. */
    public static List<String> names(String value) {
        List<String> names = new ArrayList<>();
        Matcher m = REF.matcher(value);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Whether every {@code ${} in {@code value} opens a well-formed reference. */
    public static boolean wellFormed(String value) {
        return REF.matcher(value).replaceAll("").indexOf("${") < 0;
    }

    /** Substitutes each reference with {@code lookup(name)}; the lookup never returns null. */
    public static String substitute(String value, UnaryOperator<String> lookup) {
        Matcher m = REF.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(lookup.apply(m.group(1))));
        }
        m.appendTail(out);
        return out.toString();
    }
}
