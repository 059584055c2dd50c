package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** Azure Blob Storage. */
public final class AzureBlobKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("AzureBlob", "Azure Blob Storage", Guarantee.EXACTLY_ONCE)
                        .description("Writes files to an Azure Blob Storage container")
                        .fields(
                                Field.string("account_name", "Storage account name").required(),
                                Field.string(
                                                "account_key",
                                                "Storage account key (default: the Azure"
                                                        + " credential chain)")
                                        .secret(),
                                Field.string("container", "Container the blobs are written to")
                                        .required(),
                                Field.string(
                                        "prefix", "Blob name prefix, without a trailing slash"),
                                Field.string(
                                        "endpoint",
                                        "Blob service URL (default:"
                                                + " https://<account_name>.blob.core.windows.net)"),
                                CommonFields.FORMAT,
                                CommonFields.COMPRESSION,
                                CommonFields.ROLL_SIZE_MB,
                                CommonFields.ROLL_INTERVAL_SECONDS)
                        .build());
    }
}
