package dev.freshet.spark.source;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Freshet source as Spark finds it: {@code format("freshet")} (registered in
 * {@code META-INF/services}) or this class's name, with option {@code stream} naming a
 * {@link StreamRegistration}.
 *
 * <pre>{@code
 * spark.readStream().format("freshet").option("stream", registration.id()).load();
 * }</pre>
 *
 * <p>The schema is the registered stream's; a schema given to {@code readStream} is refused
 * (Spark's default for a provider without external metadata).
 */
public final class FreshetSourceProvider implements TableProvider, DataSourceRegister {
  /** Spark makes instances by reflection. */
  public FreshetSourceProvider() {
  }

  @Override public String shortName() {
    return FreshetSource.FORMAT;
  }

  @Override public StructType inferSchema(CaseInsensitiveStringMap options) {
    return entry(options).schema();
  }

  @Override public Table getTable(StructType schema, Transform[] partitioning,
      Map<String, String> properties) {
    return new FreshetStreamTable(entry(new CaseInsensitiveStringMap(properties)));
  }

  private static RegisteredStreams.Entry entry(CaseInsensitiveStringMap options) {
    String id = options.get(FreshetSource.STREAM_OPTION);
    if (id == null || id.isBlank()) {
      throw SourceErrors.missingOption(FreshetSource.STREAM_OPTION);
    }
    return RegisteredStreams.get(id);
  }
}
