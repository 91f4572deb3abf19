package dev.freshet.jdbc.remote;

import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLContext;
import org.apache.calcite.avatica.ConnectionConfig;
import org.apache.calcite.avatica.remote.AvaticaHttpClient;
import org.apache.calcite.avatica.remote.AvaticaHttpClientFactory;
import org.apache.calcite.avatica.remote.AvaticaHttpClientFactoryImpl;
import org.apache.calcite.avatica.remote.HostnameVerificationConfigurable.HostnameVerification;
import org.apache.calcite.avatica.remote.HttpClientPoolConfigurable;
import org.apache.calcite.avatica.remote.KerberosConnection;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HttpsSupport;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.ssl.SSLContextBuilder;
import org.apache.hc.core5.ssl.SSLContexts;

/**
 * Avatica's HTTP client, on a connection pool of the driver's own that holds up to
 * {@value #MAX_CONNECTIONS_PER_SERVER} connections per server: enough for every open push result
 * of a JVM to wait in its fetch while other statements still get a connection at once.
 *
 * <p>Avatica's pool holds at most 25 connections per server ({@code
 * avatica.pooled.connections.per.route}) and is shared by all its clients in the JVM. A push
 * result's {@code next()} holds a connection for as long as its fetch waits for rows on the server
 * (up to the server's fetch timeout), so 25 waiting push results would make every other
 * statement of the JVM wait for a connection. Connections are opened only when needed; idle
 * ones stay pooled for reuse.
 *
 * <p>Chosen by {@link RemoteConnectionProperties} ({@code httpclient_factory}) unless the URL
 * names another factory; Avatica's factory still builds the client (credentials, the
 * {@code httpclient_impl} property), this one only gives it the pool.
 */
public final class PushHttpClientFactory implements AvaticaHttpClientFactory {
  /**
   * Connections per server (and in all) of the driver's pool. What bounds the open push results
   * that can wait at once is then the server: each waiting fetch holds one of its threads.
   */
  public static final int MAX_CONNECTIONS_PER_SERVER = 1000;

  /** One pool per TLS configuration, as Avatica keys its own. */
  private static final ConcurrentHashMap<String, PoolingHttpClientConnectionManager> POOLS =
      new ConcurrentHashMap<>();

  /** Called by Avatica, which instantiates the factory by name. */
  public PushHttpClientFactory() {
  }

  @Override public AvaticaHttpClient getClient(URL url, ConnectionConfig config,
      KerberosConnection kerberosUtil) {
    AvaticaHttpClient client =
        AvaticaHttpClientFactoryImpl.getInstance().getClient(url, config, kerberosUtil);
    if (client instanceof HttpClientPoolConfigurable) {
      // Rebuilds the client on this pool; the credentials set on it before are kept.
      ((HttpClientPoolConfigurable) client).setHttpClientPool(pool(config), config);
    }
    return client;
  }

  private static PoolingHttpClientConnectionManager pool(ConnectionConfig config) {
    return POOLS.computeIfAbsent(tlsKey(config), key -> PoolingHttpClientConnectionManagerBuilder
        .create()
        .setTlsSocketStrategy(new DefaultClientTlsStrategy(sslContext(config),
            hostnameVerifier(config.hostnameVerification())))
        .setMaxConnPerRoute(MAX_CONNECTIONS_PER_SERVER)
        .setMaxConnTotal(MAX_CONNECTIONS_PER_SERVER)
        .build());
  }

  private static SSLContext sslContext(ConnectionConfig config) {
    try {
      SSLContextBuilder builder = SSLContexts.custom();
      if (config.keystoreType() != null) {
        builder.setKeyStoreType(config.keystoreType());
      }
      if (config.truststore() != null && config.truststorePassword() != null) {
        builder.loadTrustMaterial(config.truststore(),
            config.truststorePassword().toCharArray());
      }
      if (config.keystore() != null && config.keystorePassword() != null
          && config.keyPassword() != null) {
        builder.loadKeyMaterial(config.keystore(), config.keystorePassword().toCharArray(),
            config.keyPassword().toCharArray());
      }
      return builder.build();
    } catch (Exception e) {
      // Avatica's own pool fails the same way: the message names the store that is wrong.
      throw new RuntimeException("Cannot set up TLS for the connection: " + e.getMessage(), e);
    }
  }

  private static HostnameVerifier hostnameVerifier(HostnameVerification verification) {
    return verification == HostnameVerification.NONE ? NoopHostnameVerifier.INSTANCE
        : HttpsSupport.getDefaultHostnameVerifier();
  }

  /** What tells two TLS configurations apart, as Avatica's pool cache does (files' times too). */
  private static String tlsKey(ConnectionConfig config) {
    return config.hostnameVerification() + ":" + config.keystoreType() + ":"
        + config.truststore() + ":" + modified(config.truststore()) + ":"
        + config.truststorePassword() + ":" + config.keystore() + ":"
        + modified(config.keystore()) + ":" + config.keystorePassword() + ":"
        + config.keyPassword();
  }

  private static long modified(File file) {
    try {
      return file == null ? 0 : Files.readAttributes(file.toPath(), BasicFileAttributes.class)
          .lastModifiedTime().toMillis();
    } catch (java.io.IOException e) {
      return 0;
    }
  }
}
