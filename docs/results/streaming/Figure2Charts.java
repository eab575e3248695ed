import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkkpca.examples.plots.Charts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Charts and the CSV of the streaming reproduction from the logs and JSON files run.sh wrote.
 * Usage: java -cp EXAMPLES_JAR:SPARK_JARS Figure2Charts.java WORKDIR OUTDIR METHOD...
 */
public class Figure2Charts {
  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    Path out = Path.of(args[1]);
    int[] versions = {0, 2, 5};
    Pattern batch = Pattern.compile("^batch (\\d+): (\\d+) rows so far .*, ([0-9.]+) s$");
    List<Charts.Line> byRows = new ArrayList<>();
    List<Charts.Line> byTime = new ArrayList<>();
    StringBuilder csv = new StringBuilder("method,batch,rows,seconds,capturedVariance,optimalVariance\n");
    double optimum = Double.NaN;
    double[] rowsAxis = new double[versions.length];
    for (int a = 2; a < args.length; a++) {
      String method = args[a];
      double[] seconds = new double[6];
      for (String line : Files.readAllLines(work.resolve(method + ".log"))) {
        Matcher m = batch.matcher(line.trim());
        if (m.matches()) {
          seconds[Integer.parseInt(m.group(1))] = Double.parseDouble(m.group(3));
        }
      }
      double[] x = new double[versions.length];
      double[] t = new double[versions.length];
      double[] y = new double[versions.length];
      for (int i = 0; i < versions.length; i++) {
        int v = versions[i];
        JsonNode json = new ObjectMapper().readTree(work.resolve(method + "-" + v + ".json").toFile());
        x[i] = (v + 1) * 1000.0;
        for (int b = 0; b <= v; b++) {
          t[i] += seconds[b];
        }
        y[i] = json.get("capturedVariance").asDouble();
        optimum = json.get("optimalVariance").asDouble();
        csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.2f,%.6g,%.6g%n", method, v, (v + 1) * 1000, t[i], y[i],
            optimum));
      }
      rowsAxis = x;
      byRows.add(Charts.Line.of(method, x, y));
      byTime.add(Charts.Line.of(method, t, y));
    }
    double[] flat = {optimum, optimum, optimum};
    byRows.add(Charts.Line.of("optimum (exact KPCA of the held-out rows)", rowsAxis, flat));
    Files.createDirectories(out);
    Files.writeString(out.resolve("results.csv"), csv);
    Charts.lineChart(out.resolve("captured-vs-rows.png"), new Charts.Axes("MNIST, rbf sigma^2 = 50, k = 10: held-out "
        + "captured variance (exact kernel)", "training rows seen", "captured variance", false), byRows);
    Charts.lineChart(out.resolve("captured-vs-time.png"), new Charts.Axes("MNIST, rbf sigma^2 = 50, k = 10: held-out "
        + "captured variance against stream wall time", "seconds (sum of micro-batch times)", "captured variance",
        false), byTime);
  }
}
