package dev.freshet.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.SocketFactory;

/**
 * A socket factory that PostgreSQL's driver would load by name ({@code ?socketFactory=}) and
 * construct with {@code ?socketFactoryArg=}: it writes that file, the proof that a URL made
 * the server run a class of its choosing. It makes no socket.
 */
public final class MarkerSocketFactory extends SocketFactory {
  public MarkerSocketFactory(String marker) {
    try {
      Files.writeString(Path.of(marker), "loaded");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override public Socket createSocket(String host, int port) throws IOException {
    throw new IOException("no socket");
  }

  @Override public Socket createSocket(String host, int port, InetAddress localHost,
      int localPort) throws IOException {
    throw new IOException("no socket");
  }

  @Override public Socket createSocket(InetAddress host, int port) throws IOException {
    throw new IOException("no socket");
  }

  @Override public Socket createSocket(InetAddress address, int port, InetAddress localAddress,
      int localPort) throws IOException {
    throw new IOException("no socket");
  }
}
