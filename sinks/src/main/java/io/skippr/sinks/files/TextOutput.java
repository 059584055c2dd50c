package io.skippr.sinks.files;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** A UTF-8 text file, optionally gzip-compressed, that counts what it wrote. */
final class TextOutput implements AutoCloseable {
    private final CountingStream counter;
    private final Writer writer;

    TextOutput(Path path, String compression) throws IOException {
        counter = new CountingStream(Files.newOutputStream(path));
        OutputStream out = counter;
        if ("gzip".equals(compression)) {
            out = new GZIPOutputStream(out, 64 * 1024);
        } else if (compression != null && !"none".equals(compression)) {
            out.close();
            throw new IOException(
                    compression
                            + " compression is for parquet; jsonl and csv"
                            + " take gzip or none");
        }
        writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 64 * 1024);
    }

    Writer writer() {
        return writer;
    }

    long bytes() {
        return counter.count;
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    private static final class CountingStream extends java.io.FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
