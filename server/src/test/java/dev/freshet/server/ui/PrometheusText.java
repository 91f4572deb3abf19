package dev.freshet.server.ui;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * A strict parser of Prometheus' text exposition format (version 0.0.4), for tests: the
 * Prometheus Java client 1.x writes the format but has no parser (its jars hold writers only).
 * It refuses what Prometheus would refuse or what hides a bug: a sample whose family has no
 * {@code # TYPE} before it, a family whose lines are split, a second {@code # HELP} or
 * {@code # TYPE}, a duplicate series, a histogram sample without its suffix, bad escapes.
 *
 * <pre>{@code
 * PrometheusText.Scrape scrape = PrometheusText.parse(body);
 * scrape.value("freshet_push_queries");                              // OptionalDouble[1.0]
 * scrape.value("freshet_query_batches_total", "kind", "view", "query", "V");
 * }</pre>
 */
final class PrometheusText {
  private PrometheusText() {
  }

  /** One sample: its metric name, its labels sorted by name, its value. */
  record Sample(String name, Map<String, String> labels, double value) {
  }

  /** A parsed scrape: the families' types and help, and every sample in order. */
  record Scrape(Map<String, String> types, Map<String, String> help, List<Sample> samples) {
    /** The value of the series with exactly these labels ({@code name, value} pairs). */
    OptionalDouble value(String name, String... labels) {
      Map<String, String> wanted = new TreeMap<>();
      for (int i = 0; i < labels.length; i += 2) {
        wanted.put(labels[i], labels[i + 1]);
      }
      for (Sample sample : samples) {
        if (sample.name().equals(name) && sample.labels().equals(wanted)) {
          return OptionalDouble.of(sample.value());
        }
      }
      return OptionalDouble.empty();
    }

    /** The samples whose label {@code label} is {@code value}, whatever their name. */
    List<Sample> withLabel(String label, String value) {
      return samples.stream().filter(s -> value.equals(s.labels().get(label))).toList();
    }
  }

  /** Parses {@code text}; throws IllegalArgumentException naming the line for anything wrong. */
  static Scrape parse(String text) {
    Map<String, String> types = new LinkedHashMap<>();
    Map<String, String> help = new LinkedHashMap<>();
    List<Sample> samples = new ArrayList<>();
    Set<String> series = new HashSet<>();
    Set<String> closed = new HashSet<>();
    String current = null;
    if (!text.isEmpty() && !text.endsWith("\n")) {
      throw new IllegalArgumentException("the text does not end with a line feed");
    }
    String[] lines = text.split("\n", -1);
    for (int n = 0; n < lines.length - 1; n++) {
      String line = lines[n];
      String where = "line " + (n + 1) + " '" + line + "': ";
      if (line.isEmpty()) {
        continue;
      }
      String family;
      if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
        String rest = line.substring(7);
        int space = rest.indexOf(' ');
        if (space < 0) {
          throw new IllegalArgumentException(where + "no text after the name");
        }
        family = name(rest.substring(0, space), where);
        String value = rest.substring(space + 1);
        if (line.startsWith("# HELP ")) {
          if (help.put(family, unescape(value, false, where)) != null) {
            throw new IllegalArgumentException(where + "second HELP for " + family);
          }
        } else {
          if (!Set.of("counter", "gauge", "histogram", "summary", "untyped").contains(value)) {
            throw new IllegalArgumentException(where + "unknown type " + value);
          }
          if (types.containsKey(family)) {
            throw new IllegalArgumentException(where + "second TYPE for " + family);
          }
          types.put(family, value);
        }
      } else if (line.startsWith("#")) {
        continue;
      } else {
        Sample sample = sample(line, where);
        family = familyOf(sample.name(), types);
        if (family == null) {
          throw new IllegalArgumentException(where + "no TYPE declared before " + sample.name());
        }
        if ("histogram".equals(types.get(family)) && sample.name().endsWith("_bucket")
            != sample.labels().containsKey("le")) {
          throw new IllegalArgumentException(where + "le goes with _bucket, and only there");
        }
        if (!series.add(sample.name() + sample.labels())) {
          throw new IllegalArgumentException(where + "duplicate series");
        }
        samples.add(sample);
      }
      if (!family.equals(current)) {
        if (!closed.add(family)) {
          throw new IllegalArgumentException(where + "the lines of " + family + " are split");
        }
        current = family;
      }
    }
    return new Scrape(types, help, samples);
  }

  /** The family a sample belongs to, or null if none declared fits its name. */
  private static String familyOf(String sample, Map<String, String> types) {
    String type = types.get(sample);
    if (type != null) {
      return "histogram".equals(type) ? null : sample;
    }
    for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
      if (sample.endsWith(suffix)) {
        String family = sample.substring(0, sample.length() - suffix.length());
        String familyType = types.get(family);
        if ("histogram".equals(familyType)
            || ("summary".equals(familyType) && !suffix.equals("_bucket"))) {
          return family;
        }
      }
    }
    return null;
  }

  private static Sample sample(String line, String where) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = name(line.substring(0, i), where);
    Map<String, String> labels = new TreeMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        int eq = line.indexOf("=\"", i);
        if (eq < 0) {
          throw new IllegalArgumentException(where + "a label without =\"");
        }
        String label = name(line.substring(i, eq), where);
        int j = eq + 2;
        StringBuilder raw = new StringBuilder();
        while (line.charAt(j) != '"') {
          if (line.charAt(j) == '\\') {
            raw.append(line.charAt(j++));
          }
          raw.append(line.charAt(j++));
        }
        if (labels.put(label, unescape(raw.toString(), true, where)) != null) {
          throw new IllegalArgumentException(where + "label " + label + " twice");
        }
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        } else if (line.charAt(i) != '}') {
          throw new IllegalArgumentException(where + "expected , or } at " + i);
        }
      }
      i++;
    }
    if (i >= line.length() || line.charAt(i) != ' ') {
      throw new IllegalArgumentException(where + "no value");
    }
    String[] rest = line.substring(i + 1).split(" ", -1);
    if (rest.length > 2) {
      throw new IllegalArgumentException(where + "more than a value and a timestamp");
    }
    if (rest.length == 2) {
      Long.parseLong(rest[1]);
    }
    return new Sample(name, labels, value(rest[0], where));
  }

  private static double value(String text, String where) {
    switch (text) {
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        try {
          return Double.parseDouble(text);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(where + "bad value " + text, e);
        }
    }
  }

  private static String name(String name, String where) {
    if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
      throw new IllegalArgumentException(where + "bad name '" + name + "'");
    }
    return name;
  }

  /** Undoes {@code \\} and {@code \n}, and in a label value {@code \"}; refuses other escapes. */
  private static String unescape(String text, boolean labelValue, String where) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char next = i + 1 < text.length() ? text.charAt(++i) : ' ';
      if (next == '\\') {
        out.append('\\');
      } else if (next == 'n') {
        out.append('\n');
      } else if (next == '"' && labelValue) {
        out.append('"');
      } else {
        throw new IllegalArgumentException(where + "bad escape \\" + next);
      }
    }
    return out.toString();
  }
}
