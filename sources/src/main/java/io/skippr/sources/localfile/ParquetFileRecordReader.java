package io.skippr.sources.localfile;

import io.skippr.core.record.Column;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads a Parquet file row group by row group with parquet-hadoop's {@link ParquetFileReader} over
 * {@link LocalInputFile} (no Hadoop file system). A restore skips whole row groups, then rows. A
 * file that cannot be read fails with an IOException naming it.
 */
final class ParquetFileRecordReader extends FormatReader {
    private final ParquetFileReader reader;
    private final MessageColumnIO columnIO;
    private final ParquetRowMaterializer materializer;
    private RecordReader<Object[]> rows;
    private long rowsLeftInGroup;
    private long toSkip;

    ParquetFileRecordReader(FileSplit split) throws IOException {
        super(split);
        reader = open(file);
        try {
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            List<Type> fields = fileSchema.getFields();
            List<Column> missing = new ArrayList<>();
            for (Column c : ParquetTypes.columns(fileSchema)) {
                if (!index.containsKey(c.name())) {
                    missing.add(c);
                }
            }
            if (!missing.isEmpty()) {
                evolve(missing);
            }
            int[] target = new int[fields.size()];
            for (int i = 0; i < target.length; i++) {
                target[i] = index.get(fields.get(i).getName());
            }
            materializer = new ParquetRowMaterializer(fileSchema, target, schema.size());
            columnIO = new ColumnIOFactory().getColumnIO(fileSchema);
            toSkip = split.recordsRead();
            for (BlockMetaData block : reader.getRowGroups()) {
                if (toSkip < block.getRowCount() || toSkip == 0) {
                    break;
                }
                reader.skipNextRowGroup();
                toSkip -= block.getRowCount();
                recordsRead += block.getRowCount();
            }
        } catch (RuntimeException e) {
            reader.close();
            throw unreadable(file, e);
        }
    }

    static ParquetFileReader open(Path file) throws IOException {
        try {
            LocalInputFile input =
                    new LocalInputFile(file) {
                        @Override
                        public String toString() {
                            return file.toString(); // parquet's messages name the input
                        }
                    };
            return ParquetFileReader.open(input, ParquetReadOptions.builder().build());
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw unreadable(file, e);
        }
    }

    /** The schema in the footer of a Parquet file. */
    static MessageType readSchema(Path file) throws IOException {
        try (ParquetFileReader r = open(file)) {
            return r.getFooter().getFileMetaData().getSchema();
        }
    }

    static IOException unreadable(Path file, Exception e) {
        if (e instanceof IOException io
                && io.getMessage() != null
                && io.getMessage().startsWith("Cannot read Parquet file")) {
            return io;
        }
        return new IOException("Cannot read Parquet file " + file + ": " + e.getMessage(), e);
    }

    @Override
    FileRecord next() throws IOException {
        try {
            while (true) {
                while (rowsLeftInGroup == 0) {
                    PageReadStore pages = reader.readNextRowGroup();
                    if (pages == null) {
                        return null;
                    }
                    rows = columnIO.getRecordReader(pages, materializer);
                    rowsLeftInGroup = pages.getRowCount();
                }
                Object[] values = rows.read();
                rowsLeftInGroup--;
                recordsRead++;
                if (toSkip > 0) {
                    toSkip--;
                    continue;
                }
                return row(values, 0);
            }
        } catch (IOException | RuntimeException e) {
            throw unreadable(file, e);
        }
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
