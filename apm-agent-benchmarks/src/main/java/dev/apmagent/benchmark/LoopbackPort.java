package dev.apmagent.benchmark;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback port nothing listened on a moment ago, for servers the benchmarks start and for "nothing listens". */
public final class LoopbackPort {

    private LoopbackPort() {
    }

    public static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
