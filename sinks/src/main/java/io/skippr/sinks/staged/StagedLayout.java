package io.skippr.sinks.staged;

import java.io.Serializable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where a staged set lives in a stage: under {@code skippr-staging/<schema>/}, the set's data files
 * {@code <name>/part-00000.csv.gz} … and its manifest {@code <name>.manifest}, which lists exactly
 * those files and carries the set's comment (pipeline, sink, run, subtask, epoch, seq) as the user
 * metadata {@value #COMMENT}, and their number as {@value #PARTS}. Names are the SQL family's
 * staging names, deterministic hashes, so a replay finds what the first attempt staged.
 */
public record StagedLayout(String root) implements Serializable {
    /** The user-metadata key of a manifest that holds its set's comment. */
    public static final String COMMENT = "skippr-staging";

    /** The user-metadata key of a manifest that holds the number of its set's parts. */
    public static final String PARTS = "skippr-parts";

    public static final StagedLayout DEFAULT = new StagedLayout("skippr-staging/");

    /** The folder of the staged sets loaded into {@code schema}. */
    public String folder(String schema) {
        return root + URLEncoder.encode(schema, StandardCharsets.UTF_8) + "/";
    }

    public String manifest(String schema, String name) {
        return folder(schema) + name + ".manifest";
    }

    public String part(String schema, String name, int part) {
        return part(schema, name, part, ".csv.gz");
    }

    /** Part {@code part} of a set, in a format whose files end in {@code extension}. */
    public String part(String schema, String name, int part, String extension) {
        return folder(schema) + name + "/part-" + String.format("%05d", part) + extension;
    }

    /** The prefix every object of the set starts with (its manifest and its folder). */
    public String set(String schema, String name) {
        return folder(schema) + name;
    }

    /** A comment as user metadata, which must be ASCII: base64url of its UTF-8. */
    static String encode(String comment) {
        return java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(comment.getBytes(StandardCharsets.UTF_8));
    }

    /** The comment {@link #encode} made; null when it is not one. */
    static String decode(String metadata) {
        if (metadata == null) {
            return null;
        }
        try {
            return new String(
                    java.util.Base64.getUrlDecoder().decode(metadata), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
