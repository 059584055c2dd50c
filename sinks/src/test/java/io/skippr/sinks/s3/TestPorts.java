package io.skippr.sinks.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

final class TestPorts {
    private TestPorts() {}

    /** A 127.0.0.1 port that nothing listens on (it was free a moment ago). */
    static int closed() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
