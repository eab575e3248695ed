import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.plots.Charts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Charts and the CSV of the streaming reproduction from what run.sh wrote: for every WORKDIR/seed-S holding an
 * evaluate.json, each method's micro-batch times (METHOD.log) and captured variance after every micro-batch.
 * With several seeds the lines are the mean and the bands span the smallest to the largest value.
 * Usage: java -cp EXAMPLES_JAR:SPARK_JARS Figure2Charts.java WORKDIR OUTDIR METHOD...
 */
public class Figure2Charts {
  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    Path out = Path.of(args[1]);
    Pattern batch = Pattern.compile("^batch (\\d+): (\\d+) rows so far .*, ([0-9.]+) s$");
    List<Path> seeds;
    try (Stream<Path> dirs = Files.list(work)) {
      seeds = dirs.filter(d -> d.getFileName().toString().startsWith("seed-") && Files.exists(d.resolve(
          "evaluate-1.json"))).sorted().toList();
    }
    StringBuilder csv = new StringBuilder("method,seed,batch,rows,seconds,capturedVariance,optimalVariance\n");
    StringBuilder summary = new StringBuilder("method,rows,seeds,meanSeconds,meanCaptured,minCaptured,maxCaptured,"
        + "meanOptimal\n");
    List<Charts.Line> byRows = new ArrayList<>();
    List<Charts.Line> byTime = new ArrayList<>();
    double[] optimum = new double[seeds.size()];
    double[] rowsAxis = null;
    for (int a = 2; a < args.length; a++) {
      String method = args[a];
      TreeMap<Integer, List<double[]>> points = new TreeMap<>(); // batch -> per seed {rows, seconds, captured}
      for (int s = 0; s < seeds.size(); s++) {
        Path seed = seeds.get(s);
        List<JsonNode> evaluations = new ArrayList<>();
        for (int e = 1; Files.exists(seed.resolve("evaluate-" + e + ".json")); e++) {
          evaluations.add(new ObjectMapper().readTree(seed.resolve("evaluate-" + e + ".json").toFile()));
        }
        JsonNode first = evaluations.get(0).get("optimalVariance"); // per model since 0.2.0
        optimum[s] = (first.isArray() ? first.get(0) : first).asDouble();
        if (!Files.exists(seed.resolve(method + ".log"))) {
          continue; // not run with this seed
        }
        double seconds = 0;
        for (String line : Files.readAllLines(seed.resolve(method + ".log"))) {
          Matcher m = batch.matcher(line.trim());
          if (!m.matches()) {
            continue;
          }
          int b = Integer.parseInt(m.group(1));
          seconds += Double.parseDouble(m.group(3));
          String version = String.format(Locale.ROOT, "models/%s/version-%012d", method, b);
          for (JsonNode json : evaluations) {
            for (int i = 0; i < json.get("models").size(); i++) {
              if (!json.get("models").get(i).asText().endsWith(version)) {
                continue;
              }
              double captured = json.get("capturedVariance").get(i).asDouble();
              double rows = Double.parseDouble(m.group(2));
              points.computeIfAbsent(b, x -> new ArrayList<>()).add(new double[] {rows, seconds, captured});
              csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.2f,%.6g,%.6g%n", method,
                  seed.getFileName().toString().substring(5), b, (long) rows, seconds, captured,
                  (json.get("optimalVariance").isArray()
                      ? json.get("optimalVariance").get(i)
                      : json.get("optimalVariance")).asDouble()));
            }
          }
        }
      }
      int n = points.size();
      double[] x = new double[n];
      double[] t = new double[n];
      double[] y = new double[n];
      double[] lo = new double[n];
      double[] hi = new double[n];
      int i = 0;
      for (List<double[]> perSeed : points.values()) {
        lo[i] = Double.POSITIVE_INFINITY;
        hi[i] = Double.NEGATIVE_INFINITY;
        for (double[] p : perSeed) {
          x[i] = p[0];
          t[i] += p[1] / perSeed.size();
          y[i] += p[2] / perSeed.size();
          lo[i] = Math.min(lo[i], p[2]);
          hi[i] = Math.max(hi[i], p[2]);
        }
        summary.append(String.format(Locale.ROOT, "%s,%d,%d,%.2f,%.6g,%.6g,%.6g,%.6g%n", method, (long) x[i],
            perSeed.size(), t[i], y[i], lo[i], hi[i], java.util.Arrays.stream(optimum).average().orElseThrow()));
        i++;
      }
      rowsAxis = rowsAxis == null || x.length > rowsAxis.length ? x : rowsAxis;
      int runs = points.firstEntry().getValue().size();
      String label = method + (runs == 1 ? " (1 run)" : " (mean of " + runs + " runs, band: min-max)");
      Charts.Line rows = Charts.Line.of(label, x, y);
      Charts.Line time = Charts.Line.of(label, t, y);
      if (runs > 1) {
        rows = rows.withBand(lo, hi);
        time = time.withBand(lo, hi);
      }
      byRows.add(rows);
      byTime.add(time);
    }
    double mean = java.util.Arrays.stream(optimum).average().orElseThrow();
    double[] flat = new double[rowsAxis.length];
    java.util.Arrays.fill(flat, mean);
    byRows.add(Charts.Line.of("optimum (exact KPCA of the held-out rows)", rowsAxis, flat).asDashed());
    Files.createDirectories(out);
    Files.writeString(out.resolve("results.csv"), csv);
    Files.writeString(out.resolve("summary.csv"), summary);
    String title = "MNIST, rbf sigma^2 = 50, k = 10";
    Charts.lineChart(out.resolve("captured-vs-rows.png"), new Charts.Axes(title + ": captured variance on the "
        + "10,000 test rows (exact kernel)", "training rows streamed", "captured variance", false), byRows);
    Charts.lineChart(out.resolve("captured-vs-time.png"), new Charts.Axes(title + ": captured variance against "
        + "stream wall time", "seconds (sum of micro-batch times)", "captured variance", false), byTime);
  }
}
