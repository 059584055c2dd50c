package io.skippr.sinks.files;

import java.util.Locale;

/** The formats the file-sink family writes. */
public enum FileFormat {
    PARQUET("parquet"),
    JSONL("jsonl"),
    CSV("csv");

    private final String extension;

    FileFormat(String extension) {
        this.extension = extension;
    }

    public String extension() {
        return extension;
    }

    public static FileFormat of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /** The codec used when the config names none. */
    public String defaultCompression() {
        return this == PARQUET ? "snappy" : "none";
    }
}
