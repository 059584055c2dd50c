package io.skippr.sinks.staged;

import io.skippr.core.record.Row;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stages a writer's rows as files: each staging table of the SQL family becomes a staged set of
 * parts in the warehouse's {@link StagedFormat} (gzipped CSV, Parquet) written to local temporary
 * files, rolled at {@link #PART_BYTES}; {@link #finish} uploads the parts, then the manifest
 * listing exactly them ({@link StagedLayout}), whose metadata also holds their number. Only a set
 * whose manifest is in the stage is loaded by a commit, so a set cut short by a failure is never
 * half-loaded.
 */
public final class StagedFileLoader implements StagingLoader {
    /** CSV bytes per part before the next part starts (before compression). */
    static final long PART_BYTES = 256L << 20;

    private final Stage stage;
    private final StagedLayout layout;
    private final StagedFormat format;
    private final Map<String, Pending> pending = new LinkedHashMap<>();

    public StagedFileLoader(Stage stage, StagedLayout layout) {
        this(stage, layout, StagedFormat.CSV_GZIP);
    }

    public StagedFileLoader(Stage stage, StagedLayout layout, StagedFormat format) {
        this.stage = stage;
        this.layout = layout;
        this.format = format;
    }

    /** One staged set being written: its finished parts and the part being written. */
    private static final class Pending {
        final StagingTable table;
        final List<Path> parts = new ArrayList<>();
        StagedFormat.Part out;

        Pending(StagingTable table) {
            this.table = table;
        }
    }

    @Override
    public void create(StagingTable table) throws IOException {
        Pending p = new Pending(table);
        pending.put(table.name(), p);
        roll(p);
    }

    private void roll(Pending p) throws IOException {
        if (p.out != null) {
            p.out.close();
        }
        Path file = Files.createTempFile("skippr-staged-", format.extension());
        p.parts.add(file);
        p.out = format.open(p.table, file);
    }

    @Override
    public void write(StagingTable table, Row row, long seq) throws IOException {
        Pending p = pending.get(table.name());
        if (p == null) {
            throw new IOException("staged set " + table.name() + " was not created");
        }
        if (p.out.bytes() >= PART_BYTES) {
            roll(p);
        }
        p.out.write(row, seq);
    }

    @Override
    public void finish() throws IOException {
        try {
            for (Pending p : pending.values()) {
                upload(p);
            }
        } finally {
            close();
        }
    }

    private void upload(Pending p) throws IOException {
        p.out.close();
        p.out = null;
        String schema = p.table.schemaName();
        StringBuilder manifest = new StringBuilder("{\"entries\":[");
        for (int i = 0; i < p.parts.size(); i++) {
            String key = layout.part(schema, p.table.name(), i, format.extension());
            stage.put(key, p.parts.get(i), Map.of());
            manifest.append(i == 0 ? "" : ",")
                    .append("{\"url\":\"")
                    .append(stage.url(key))
                    .append("\",\"mandatory\":true,\"meta\":{\"content_length\":")
                    .append(Files.size(p.parts.get(i)))
                    .append("}}");
        }
        manifest.append("]}");
        stage.put(
                layout.manifest(schema, p.table.name()),
                manifest.toString().getBytes(StandardCharsets.UTF_8),
                Map.of(
                        StagedLayout.COMMENT,
                        StagedLayout.encode(p.table.comment()),
                        StagedLayout.PARTS,
                        Integer.toString(p.parts.size())));
    }

    @Override
    public void close() throws IOException {
        for (Pending p : pending.values()) {
            if (p.out != null) {
                try {
                    p.out.close();
                } catch (IOException ignored) {
                    // the local part is deleted next; nothing of it was staged
                }
            }
            for (Path part : p.parts) {
                Files.deleteIfExists(part);
            }
        }
        pending.clear();
    }
}
