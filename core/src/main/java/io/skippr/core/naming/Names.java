package io.skippr.core.naming;

import java.text.Normalizer;
import java.util.Locale;

/** How stream names become table and folder names: lower snake_case, safe in any destination. */
public final class Names {
    private Names() {}

    /**
     * {@code OrderItems} and {@code order items} become {@code order_items}; characters outside
     * letters, digits and _ become _, accents are dropped; never empty, never starting with a
     * digit.
     */
    public static String snake(String stream) {
        String ascii = Normalizer.normalize(stream, Normalizer.Form.NFKD).replaceAll("\\p{M}", "");
        String snake =
                ascii.replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                        .replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2")
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^a-z0-9_]+", "_")
                        .replaceAll("_+", "_")
                        .replaceAll("^_|_$", "");
        if (snake.isEmpty()) {
            snake = "stream_" + Integer.toHexString(stream.hashCode());
        }
        return Character.isDigit(snake.charAt(0)) ? "_" + snake : snake;
    }
}
