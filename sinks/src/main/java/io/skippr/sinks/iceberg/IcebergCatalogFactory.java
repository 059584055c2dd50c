package io.skippr.sinks.iceberg;

import java.io.Serializable;
import org.apache.iceberg.catalog.Catalog;

/**
 * Opens the Iceberg catalog an Iceberg-family sink commits to: SkipprLake's JDBC catalog, or
 * (later) AWS Glue's. Shipped to the writer and committer tasks, so it holds settings only and
 * opens the catalog where it is used. It must never print a secret it holds.
 */
public interface IcebergCatalogFactory extends Serializable {
    /** A new catalog client, with its FileIO; the caller closes it. */
    Catalog open();

    /** Where the catalog and warehouse are, for messages: no credentials. */
    String describe();
}
