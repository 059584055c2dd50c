package io.skippr.sinks.staged;

import io.skippr.core.record.Row;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Stages a writer's rows as files: each staging table of the SQL family becomes a staged set of
 * gzipped CSV parts ({@link StagedCsv}) written to local temporary files, rolled at {@link
 * #PART_BYTES} of CSV; {@link #finish} uploads the parts, then the manifest listing exactly them
 * ({@link StagedLayout}). Only a set whose manifest is in the stage is loaded by a commit, so a set
 * cut short by a failure is never half-loaded.
 */
public final class StagedFileLoader implements StagingLoader {
    /** CSV bytes per part before the next part starts (before compression). */
    static final long PART_BYTES = 256L << 20;

    private final Stage stage;
    private final StagedLayout layout;
    private final Map<String, Pending> pending = new LinkedHashMap<>();

    public StagedFileLoader(Stage stage, StagedLayout layout) {
        this.stage = stage;
        this.layout = layout;
    }

    /** One staged set being written: its finished parts and the part being written. */
    private static final class Pending {
        final StagingTable table;
        final StagedCsv csv;
        final List<Path> parts = new ArrayList<>();
        final StringBuilder line = new StringBuilder();
        Writer out;
        long bytes;

        Pending(StagingTable table) {
            this.table = table;
            this.csv = new StagedCsv(table.schema());
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
        Path file = Files.createTempFile("skippr-staged-", ".csv.gz");
        p.parts.add(file);
        OutputStream gzip = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16);
        p.out = new OutputStreamWriter(gzip, StandardCharsets.UTF_8);
        p.bytes = 0;
    }

    @Override
    public void write(StagingTable table, Row row, long seq) throws IOException {
        Pending p = pending.get(table.name());
        if (p == null) {
            throw new IOException("staged set " + table.name() + " was not created");
        }
        if (p.bytes >= PART_BYTES) {
            roll(p);
        }
        p.line.setLength(0);
        p.csv.append(p.line, row, seq);
        p.out.append(p.line);
        p.bytes += p.line.length();
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
            String key = layout.part(schema, p.table.name(), i);
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
                Map.of(StagedLayout.COMMENT, StagedLayout.encode(p.table.comment())));
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
