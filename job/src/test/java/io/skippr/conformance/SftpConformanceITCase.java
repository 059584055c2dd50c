package io.skippr.conformance;

/** The SFTP sink (CSV) on an in-process MINA SSHD server. */
class SftpConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new SftpFixture("csv");
    }
}
