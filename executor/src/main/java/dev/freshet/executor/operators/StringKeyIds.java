package dev.freshet.executor.operators;

import dev.freshet.executor.vector.ColumnVector;
import dev.freshet.executor.vector.StringDictionary;
import dev.freshet.executor.vector.VectorBatch;
import java.util.Arrays;

/**
 * One string key column of an input task's {@link VectorAggregateInput}: gives each distinct
 * string a {@code long} id, stable from the task's first batch until its groups are drained, so
 * that the integer group tables ({@link LongGroupTable}, {@link CompositeGroupTable}) group
 * strings too, and {@link #string} gives the key back.
 *
 * <pre>{@code
 * ColumnVector ids = keyIds.idsOf(batch, batch.column(k));  // LONG: an id per row, NULLs kept
 * String key = keyIds.string(table.key(g));                  // the String of group g's key
 * keyIds.clear(1 << 16);                                     // after the drain
 * }</pre>
 *
 * <p>The batch's vector holds dictionary codes: each code met in the selected rows is looked up
 * once per batch (a hash of the String, which caches it, and an {@code equals}), the rows after
 * it read its id from an array by code. The ids are handed out in the order the strings first
 * appear in the selected rows, and the key given back is the first of the equal Strings read,
 * as the row path's first row of a group makes its key.
 */
final class StringKeyIds {
  /** Lives for the batch's groups, which may be many: seeded against colliding keys. */
  private StringDictionary ids = StringDictionary.seeded();
  /** Per code of the batch's dictionary, its id, or -1 while not looked up in this batch. */
  private int[] idOfCode = new int[0];
  private ColumnVector out;

  /**
   * The ids of {@code strings}' selected rows, in a LONG vector this object reuses; a NULL row
   * is NULL there.
   */
  ColumnVector idsOf(VectorBatch batch, ColumnVector strings) {
    if (out == null || out.capacity() < batch.capacity()) {
      out = ColumnVector.ofLongs(batch.capacity());
    }
    StringDictionary dictionary = strings.dictionary;
    int entries = dictionary.size();
    if (idOfCode.length < entries) {
      idOfCode = new int[Math.max(entries, 2 * idOfCode.length)];
    }
    int[] byCode = idOfCode;
    Arrays.fill(byCode, 0, entries, -1);
    int n = batch.selectedCount();
    int[] sel = batch.selection();
    boolean useSel = batch.selectionInUse();
    int[] codes = strings.codes;
    long[] result = out.longs;
    boolean noNulls = strings.noNulls;
    out.noNulls = noNulls;
    for (int j = 0; j < n; j++) {
      int i = useSel ? sel[j] : j;
      if (!noNulls && strings.nulls[i]) {
        out.nulls[i] = true;
        continue;
      }
      if (!noNulls) {
        out.nulls[i] = false;
      }
      int code = codes[i];
      int id = byCode[code];
      if (id < 0) {
        id = byCode[code] = ids.encode(dictionary.get(code));
      }
      result[i] = id;
    }
    return out;
  }

  /** The id of {@code value}, or -1 if no row of this batch had it; allocates nothing. */
  long find(String value) {
    return ids.find(value);
  }

  /** The string of {@code id}. */
  String string(long id) {
    return ids.get((int) id);
  }

  /**
   * Forgets the ids, as the group tables forget their groups; one that held more than
   * {@code maxKept} strings is given back.
   */
  void clear(int maxKept) {
    if (ids.size() > maxKept) {
      ids = StringDictionary.seeded();
    } else {
      ids.clear();
    }
  }
}
