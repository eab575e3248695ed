package io.github.sparkkpca.examples.notebooks;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import scala.tools.nsc.Settings;
import scala.tools.nsc.interpreter.IMain;

/**
 * Runs a Databricks notebook in source format ({@code // Databricks notebook source}, cells
 * separated by {@code // COMMAND ----------}, {@code // MAGIC} cells for markdown and other magics)
 * the way a notebook attached to a cluster does: every code cell in order, in one Scala interpreter
 * in which {@code spark} is the session and {@code display} and {@code displayHTML} exist.
 *
 * <p>The interpreter wraps each cell in a class (as Spark's shell and Databricks do) and writes the
 * compiled classes to {@code classDir}; a session built with {@code spark.repl.class.outputDir}
 * pointing there lets the executors load them, so closures and UDFs defined in a cell run on the
 * executors as on a cluster. Works with the Scala 2.13 and the 2.12 interpreter (their constructors
 * differ; the rest of the API used is common).
 */
final class NotebookRunner implements AutoCloseable {

  static final String HEADER = "// Databricks notebook source";
  static final String SEPARATOR = "// COMMAND ----------";

  /** One cell: its 1-based number, the line of the notebook where its text starts, and its text. */
  record Cell(int number, int line, String source) {
    /** A cell of {@code // MAGIC} lines only (markdown, %sh, %python …): not Scala, not run. */
    boolean isMagic() {
      return source.lines().filter(l -> !l.isBlank()).allMatch(l -> l.startsWith("// MAGIC"));
    }
  }

  /** What the interpreter reported for one cell. */
  record Outcome(String result, String output) {
    boolean succeeded() {
      return result.equals("Success");
    }
  }

  private final IMain interpreter;
  private final StringBuilder transcript = new StringBuilder();

  /** The session definitions every notebook sees, as Databricks predefines them. */
  private static final String PRELUDE =
      String.join(
          "\n",
          "def display(data: Any): Unit = data match {",
          "  case ds: org.apache.spark.sql.Dataset[_] => ds.show(20, false)",
          "  case other => println(other)",
          "}",
          "def displayHTML(html: String): Unit =",
          "  println(\"[displayHTML] \" + (if (html.length > 200) html.take(200) + \"… (\" + html.length + \" chars)\""
              + " else html))");

  NotebookRunner(SparkSession spark, Path classDir) throws ReflectiveOperationException {
    Settings settings = new Settings();
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    settings.classpath().value_$eq(classpath);
    settings.Yreploutdir().value_$eq(classDir.toString());
    settings.processArgumentString("-Yrepl-class-based");
    PrintWriter out = new PrintWriter(new Tee(transcript), true);
    interpreter = newInterpreter(settings, out);
    check(
        "binding spark",
        interpreter
            .bind(
                "spark",
                SparkSession.class.getName(),
                spark,
                scala.collection.immutable.List$.MODULE$.empty())
            .toString());
    check("the prelude", interpreter.interpret(PRELUDE).toString());
  }

  /**
   * Scala 2.13: {@code new IMain(settings, new ReplReporterImpl(settings, out))}; 2.12: {@code new
   * IMain(settings, out)}.
   */
  private static IMain newInterpreter(Settings settings, PrintWriter out)
      throws ReflectiveOperationException {
    Class<?> reporterClass;
    try {
      reporterClass = Class.forName("scala.tools.nsc.interpreter.shell.ReplReporterImpl");
    } catch (ClassNotFoundException scala212) {
      return IMain.class
          .getConstructor(Settings.class, PrintWriter.class)
          .newInstance(settings, out);
    }
    Object reporter =
        reporterClass.getConstructor(Settings.class, PrintWriter.class).newInstance(settings, out);
    Class<?> reporterType = Class.forName("scala.tools.nsc.interpreter.ReplReporter");
    Constructor<IMain> constructor = IMain.class.getConstructor(Settings.class, reporterType);
    return constructor.newInstance(settings, reporter);
  }

  private void check(String what, String result) {
    if (!result.equals("Success")) {
      throw new IllegalStateException(
          "The interpreter failed on " + what + ": " + result + "\n" + transcript);
    }
  }

  /** The cells of a notebook file, in order. */
  static List<Cell> cells(Path notebook) throws IOException {
    List<String> lines = Files.readAllLines(notebook);
    if (lines.isEmpty() || !lines.get(0).strip().equals(HEADER)) {
      throw new IllegalArgumentException(notebook + " does not start with '" + HEADER + "'");
    }
    List<Cell> cells = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int start = 0;
    for (int i = 1; i <= lines.size(); i++) {
      if (i == lines.size() || lines.get(i).strip().equals(SEPARATOR)) {
        if (!current.toString().isBlank()) {
          cells.add(new Cell(cells.size() + 1, start, current.toString()));
        }
        current.setLength(0);
        start = 0;
      } else {
        if (start == 0 && !lines.get(i).isBlank()) {
          start = i + 1;
        }
        current.append(lines.get(i)).append('\n');
      }
    }
    return cells;
  }

  /** Interprets one cell; the outcome carries the interpreter's output for it. */
  Outcome run(Cell cell) {
    transcript.setLength(0);
    String result = interpreter.interpret(cell.source()).toString();
    return new Outcome(result, transcript.toString());
  }

  @Override
  public void close() {
    interpreter.close();
  }

  /** Echoes the interpreter's output to stdout and keeps it for failure messages. */
  private static final class Tee extends Writer {
    private final StringBuilder kept;

    Tee(StringBuilder kept) {
      this.kept = kept;
    }

    @Override
    public void write(char[] buffer, int offset, int length) {
      kept.append(buffer, offset, length);
      System.out.print(new String(buffer, offset, length));
    }

    @Override
    public void flush() {
      System.out.flush();
    }

    @Override
    public void close() {
      flush();
    }
  }
}
