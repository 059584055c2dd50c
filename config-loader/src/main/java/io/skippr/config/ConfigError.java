package io.skippr.config;

/**
 * One user mistake in a config file: where it is, the YAML path, and what was expected and found.
 * Messages never hold a secret's value.
 *
 * @param file the file name as the user gave it
 * @param line 1-based line, or 0 when the mistake has no place in the file
 * @param column 1-based column, or 0
 * @param path the YAML path, such as {@code data_sinks.warehouse.Postgres.port}, or empty
 * @param message what was expected and what was found, with a suggestion where there is one
 */
public record ConfigError(String file, int line, int column, String path, String message) {

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(file);
        if (line > 0) {
            out.append(':').append(line);
            if (column > 0) {
                out.append(':').append(column);
            }
        }
        out.append(": ");
        if (!path.isEmpty()) {
            out.append(path).append(": ");
        }
        return out.append(message).toString();
    }
}
