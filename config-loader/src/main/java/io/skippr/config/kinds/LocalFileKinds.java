package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Files on the local file system, as a data source and as a data sink. */
public final class LocalFileKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSource("LocalFile", "Local file")
                        .description("Reads CSV, JSONL or Parquet files matched by a glob")
                        .fields(
                                Field.path(
                                                "path",
                                                "Glob of the files to read, such as"
                                                        + " data/orders/*.csv")
                                        .required(),
                                Field.choice(
                                        "format",
                                        "File format (default: from the file extension)",
                                        "parquet",
                                        "jsonl",
                                        "csv"),
                                Field.string(
                                        "stream",
                                        "Stream name of the files (default: the data source's"
                                                + " name)"))
                        .build(),
                KindSpec.dataSink("LocalFile", "Local file", Guarantee.EXACTLY_ONCE)
                        .description("Writes files into a local folder")
                        .fields(
                                Field.path("path", "Folder the files are written to").required(),
                                CommonFields.FORMAT,
                                CommonFields.COMPRESSION,
                                CommonFields.ROLL_SIZE_MB,
                                CommonFields.ROLL_INTERVAL_SECONDS)
                        .build());
    }
}
