package io.skippr.conformance;

/** The AzureBlob sink (JSONL) on Azurite. */
class AzureBlobConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new AzureBlobFixture("jsonl");
    }
}
