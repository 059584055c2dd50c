package io.skippr.sinks.staged;

import io.skippr.core.record.Row;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Serializable;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * The file format a warehouse loads staged parts in: gzipped CSV ({@link #CSV_GZIP}, Redshift),
 * Parquet matched to the staging table by column name ({@link #PARQUET}, Snowflake), or another a
 * warehouse reads better (Databricks: its own Parquet).
 */
public interface StagedFormat extends Serializable {
    /** The parts' file name extension, with its dot ({@code .csv.gz}). */
    String extension();

    /** Opens a part of staged set {@code table} as the local file {@code file}. */
    Part open(StagingTable table, Path file) throws IOException;

    /** One part being written. */
    interface Part {
        /** Adds {@code row}, at position {@code seq} in its staged set. */
        void write(Row row, long seq) throws IOException;

        /** Bytes written so far (before compression where the format compresses), for rolling. */
        long bytes();

        void close() throws IOException;
    }

    /** {@link StagedCsv} records, gzipped. */
    StagedFormat CSV_GZIP = new GzipCsv();

    /** {@link #CSV_GZIP}'s implementation. */
    final class GzipCsv implements StagedFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public String extension() {
            return ".csv.gz";
        }

        @Override
        public Part open(StagingTable table, Path file) throws IOException {
            StagedCsv csv = new StagedCsv(table.schema());
            OutputStream gzip = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16);
            Writer out = new OutputStreamWriter(gzip, StandardCharsets.UTF_8);
            StringBuilder line = new StringBuilder();
            return new Part() {
                long bytes;

                @Override
                public void write(Row row, long seq) throws IOException {
                    line.setLength(0);
                    csv.append(line, row, seq);
                    out.append(line);
                    bytes += line.length();
                }

                @Override
                public long bytes() {
                    return bytes;
                }

                @Override
                public void close() throws IOException {
                    out.close();
                }
            };
        }
    }

    /** {@link StagedParquet} records, loaded by column name. */
    StagedFormat PARQUET = new Parquet();

    /** {@link #PARQUET}'s implementation. */
    final class Parquet implements StagedFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public String extension() {
            return ".parquet";
        }

        @Override
        public Part open(StagingTable table, Path file) throws IOException {
            return StagedParquet.part(table, file);
        }
    }
}
