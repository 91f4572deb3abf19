package dev.freshet.server;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service;

/**
 * Wraps an Avatica {@link Service} so that an engine error reaches the client with its SQLSTATE
 * and its own message.
 *
 * <pre>{@code
 * Service service = SqlStateService.wrap(new LocalService(meta));
 * }</pre>
 *
 * <p>Avatica's handler copies SQLSTATE, error code and message into its error response only from
 * an {@link AvaticaRuntimeException}; any other exception goes out as SQLSTATE 00000 with the
 * chain of exception class names as the message. The engine reports errors as
 * {@link SQLException}s (wrapped in a RuntimeException by the Meta), so this finds that
 * SQLException and rethrows it in the form the handler understands. One proxy covers every
 * request type, including those added to {@code Service} later.
 */
final class SqlStateService implements InvocationHandler {
  private final Service delegate;

  private SqlStateService(Service delegate) {
    this.delegate = delegate;
  }

  /** Returns {@code delegate} with engine errors translated. */
  static Service wrap(Service delegate) {
    return (Service) Proxy.newProxyInstance(Service.class.getClassLoader(),
        new Class<?>[] {Service.class}, new SqlStateService(delegate));
  }

  @Override public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(delegate, args);
    } catch (InvocationTargetException e) {
      Throwable failure = e.getCause();
      SQLException sql = sqlException(failure);
      if (sql == null) {
        throw failure;
      }
      throw new AvaticaRuntimeException(sql.getMessage(), sql.getErrorCode(), sql.getSQLState(),
          AvaticaSeverity.ERROR);
    }
  }

  /** The first SQLException with a SQLSTATE in the cause chain, or null. */
  private static SQLException sqlException(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException && ((SQLException) t).getSQLState() != null) {
        return (SQLException) t;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }
}
