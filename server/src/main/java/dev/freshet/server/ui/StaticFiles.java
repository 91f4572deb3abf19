package dev.freshet.server.ui;

import java.io.IOException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** The pages under {@code /ui/} and the chart library under {@code /webjars/}. (Stub.) */
final class StaticFiles {
  void handle(String target, HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.sendError(HttpServletResponse.SC_NOT_FOUND);
  }
}
