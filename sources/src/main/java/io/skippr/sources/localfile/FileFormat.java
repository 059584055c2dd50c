package io.skippr.sources.localfile;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The file formats the LocalFile source reads, and how a file name tells them. */
public enum FileFormat {
    CSV("csv", List.of("csv")),
    JSONL("jsonl", List.of("jsonl", "ndjson")),
    PARQUET("parquet", List.of("parquet", "pq"));

    private final String setting;
    private final List<String> extensions;

    FileFormat(String setting, List<String> extensions) {
        this.setting = setting;
        this.extensions = extensions;
    }

    /** The value of the {@code format} setting. */
    public String setting() {
        return setting;
    }

    /** The format a {@code format} setting names. */
    public static FileFormat ofSetting(String value) {
        for (FileFormat f : values()) {
            if (f.setting.equalsIgnoreCase(value.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException(
                "Unknown LocalFile format '" + value + "': use parquet, jsonl or csv");
    }

    /** The format a file name's extension tells (case-insensitive), if any. */
    public static Optional<FileFormat> ofFileName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        int slash = fileName.lastIndexOf('/');
        if (dot < 0 || dot < slash) {
            return Optional.empty();
        }
        String ext = fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        for (FileFormat f : values()) {
            if (f.extensions.contains(ext)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return setting;
    }
}
