package io.github.sparkkpca.examples.bench;

import io.github.sparkkpca.examples.data.SyntheticData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The inputs of {@code spark-kpca bench}'s grid: a synthetic spec crossed with {@code --n} and
 * {@code --d}, or a data source as it is; a bad combination is an {@link IllegalArgumentException}
 * whose message names the options.
 */
final class GridInputs {

  private GridInputs() {}

  /** The inputs of the grid: one per (n, d) for synthetic, else the input itself. */
  static List<String> expand(String input, List<Long> ns, List<Integer> ds, long seed) {
    String lower = input.trim().toLowerCase(Locale.ROOT);
    boolean synthetic = lower.equals("synthetic") || lower.startsWith("synthetic:");
    if (!synthetic) {
      check(
          ns == null && ds == null,
          "--n and --d apply to synthetic inputs only; " + input + " has its own size");
      return List.of(input.trim());
    }
    Map<String, String> base = new LinkedHashMap<>();
    String params = lower.contains(":") ? input.trim().substring(input.indexOf(':') + 1) : "";
    for (String part : params.split(",")) {
      if (!part.isBlank()) {
        int eq = part.indexOf('=');
        check(eq > 0, "--input: expected key=value, got '" + part + "'");
        base.put(
            part.substring(0, eq).trim().toLowerCase(Locale.ROOT), part.substring(eq + 1).trim());
      }
    }
    check(ns == null || !base.containsKey("n"), "give n either in --input or with --n, not both");
    check(ds == null || !base.containsKey("d"), "give d either in --input or with --d, not both");
    base.putIfAbsent("seed", Long.toString(seed));
    List<String> nValues =
        ns != null
            ? ns.stream().map(String::valueOf).toList()
            : List.of(base.getOrDefault("n", String.valueOf(SyntheticData.Spec.DEFAULT_N)));
    List<String> dValues =
        ds != null
            ? ds.stream().map(String::valueOf).toList()
            : List.of(base.getOrDefault("d", "50"));
    List<String> out = new ArrayList<>();
    for (String n : nValues) {
      for (String d : dValues) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("n", n);
        p.put("d", d);
        base.forEach(
            (key, value) -> {
              if (!key.equals("n") && !key.equals("d")) {
                p.put(key, value);
              }
            });
        StringBuilder s = new StringBuilder("synthetic:");
        p.forEach(
            (key, value) ->
                s.append(s.length() > "synthetic:".length() ? "," : "")
                    .append(key)
                    .append('=')
                    .append(value));
        try {
          SyntheticData.Spec.parse(s.substring("synthetic:".length()));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--input/--n/--d: " + e.getMessage(), e);
        }
        out.add(s.toString());
      }
    }
    return out;
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }
}
