package io.skippr.sinks.files;

import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;

/** Parquet through parquet-hadoop, written to a local file without a Hadoop file system. */
final class ParquetRowFileWriter implements RowFileWriter {
    private final ParquetWriter<Row> writer;

    ParquetRowFileWriter(StreamSchema schema, Path path, String compression) throws IOException {
        writer =
                new Builder(path, schema)
                        .withCompressionCodec(codec(compression))
                        .withWriteMode(ParquetFileWriter.Mode.CREATE)
                        .withConf(new Configuration(false))
                        .build();
    }

    private static CompressionCodecName codec(String compression) throws IOException {
        return switch (compression == null ? "snappy" : compression) {
            case "snappy" -> CompressionCodecName.SNAPPY;
            case "zstd" -> CompressionCodecName.ZSTD;
            case "gzip" -> CompressionCodecName.GZIP;
            case "none" -> CompressionCodecName.UNCOMPRESSED;
            default -> throw new IOException("unknown parquet compression " + compression);
        };
    }

    @Override
    public void write(Row row) throws IOException {
        writer.write(row);
    }

    @Override
    public long bytesWritten() {
        return writer.getDataSize();
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
        private final StreamSchema schema;

        Builder(Path path, StreamSchema schema) {
            super(new LocalOutputFile(path));
            this.schema = schema;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Row> getWriteSupport(Configuration conf) {
            return new RowWriteSupport(schema);
        }
    }
}
