package io.skippr.conformance;

/** Athena Iceberg: Iceberg tables on S3Proxy through Iceberg's GlueCatalog on a fake Glue. */
class AthenaIcebergConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new AthenaIcebergFixture();
    }
}
