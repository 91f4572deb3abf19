package dev.freshet.server.ui;

import java.io.IOException;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.calcite.avatica.metrics.MetricsSystem;
import org.apache.calcite.avatica.remote.Service.RpcMetadataResponse;
import org.apache.calcite.avatica.server.AbstractAvaticaHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;

/**
 * The handler Avatica's server runs behind its security handler: requests that came in on the
 * web UI's connector go to the {@link WebUiRoutes}, all others to the JDBC endpoint. Sitting
 * behind the security handler, the UI has exactly the JDBC port's authentication.
 *
 * <pre>{@code
 * HttpServer.Builder.newBuilder().withHandler(new ConnectorRouter(jdbc, "freshet-ui", ui)) ...
 * }</pre>
 */
public final class ConnectorRouter extends AbstractAvaticaHandler {
  private final AbstractAvaticaHandler jdbc;
  private final String uiConnector;
  private final Handler ui;

  /**
   * Routes requests of the connector named {@code uiConnector} to {@code ui}, others to
   * {@code jdbc}.
   */
  public ConnectorRouter(AbstractAvaticaHandler jdbc, String uiConnector, Handler ui) {
    this.jdbc = jdbc;
    this.uiConnector = uiConnector;
    this.ui = ui;
    addBean(jdbc);
    addBean(ui);
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException, ServletException {
    if (uiConnector.equals(baseRequest.getHttpChannel().getConnector().getName())) {
      ui.handle(target, baseRequest, request, response);
    } else {
      jdbc.handle(target, baseRequest, request, response);
    }
  }

  @Override public void setServer(org.eclipse.jetty.server.Server server) {
    super.setServer(server);
    jdbc.setServer(server);
    ui.setServer(server);
  }

  @Override public void setServerRpcMetadata(RpcMetadataResponse metadata) {
    jdbc.setServerRpcMetadata(metadata);
  }

  @Override public MetricsSystem getMetrics() {
    return jdbc.getMetrics();
  }
}
