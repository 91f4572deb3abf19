package dev.freshet.executor.state;

import static java.util.Objects.requireNonNull;

/**
 * Identity of one state store: one partition of one stateful operator of one query.
 *
 * <p>Laid out on disk as {@code state/<operatorId>/<partitionId>} under the query's checkpoint.
 *
 * @param queryId the query that owns the store
 * @param operatorId the stateful operator, numbered from 0 nearest the sink
 * @param partitionId the state partition, in {@code [0, numPartitions)}
 */
public record StateStoreId(String queryId, int operatorId, int partitionId) {
  public StateStoreId {
    requireNonNull(queryId, "queryId");
    if (operatorId < 0 || partitionId < 0) {
      throw new IllegalArgumentException("negative operator or partition id");
    }
  }

  @Override public String toString() {
    return "StateStoreId[query=" + queryId + ", operator=" + operatorId
        + ", partition=" + partitionId + "]";
  }
}
