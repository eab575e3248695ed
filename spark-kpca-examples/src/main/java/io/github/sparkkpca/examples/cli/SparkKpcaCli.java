package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.examples.data.DataSources;
import io.github.sparkkpca.examples.data.InputFormat;
import io.github.sparkkpca.examples.data.LoadedData;
import io.github.sparkkpca.examples.data.SourceOptions;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code spark-kpca} command line. Its commands, and the classes that implement them, are
 * listed in docs/design.md ("Command line"): {@code fit}, {@code transform}, {@code update}, {@code
 * grow}, {@code export}, {@code stream}, {@code score-stream}, {@code evaluate}, {@code select-k},
 * {@code rde}, {@code predict}, {@code demo}, {@code reproduce} (sterge, landmarks, hallgren, rde)
 * and {@code bench}.
 *
 * <p>Runs under {@code spark-submit --class io.github.sparkkpca.examples.cli.SparkKpcaCli} or with
 * plain {@code java} through {@code bin/spark-kpca} (then on {@code local[*]}). {@link #run}
 * executes in-process and returns the exit code, reusing a running SparkSession; {@link #main}
 * exits with it.
 *
 * <p><b>Exit codes and errors.</b> 0 on success; 2 for usage errors and bad input or parameters,
 * including any {@link IllegalArgumentException} from the library, however deeply Spark wrapped it,
 * and running out of memory in any thread ({@link OutOfMemoryGuard}: the sizes asked for exceed the
 * memory, as when the checks before the work refuse them); 1 for other failures. Errors are one
 * line on stderr, {@code spark-kpca: error: ...}, without a stack trace unless {@code --debug} is
 * given.
 */
@Command(
    name = "spark-kpca",
    mixinStandardHelpOptions = true,
    versionProvider = SparkKpcaCli.Version.class,
    resourceBundle = "io.github.sparkkpca.examples.cli.SparkKpcaCli",
    description = "Distributed Nyström kernel PCA on Apache Spark.",
    subcommands = {
      FitCommand.class,
      TransformCommand.class,
      UpdateCommand.class,
      GrowCommand.class,
      ExportCommand.class,
      StreamCommand.class,
      ScoreStreamCommand.class,
      EvaluateCommand.class,
      SelectKCommand.class,
      RdeCommand.class,
      PredictCommand.class,
      DemoCommand.class,
      ReproduceCommand.class,
      io.github.sparkkpca.examples.bench.BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class SparkKpcaCli implements Callable<Integer> {

  /** The prefix of every error line. */
  public static final String ERROR_PREFIX = "spark-kpca: error: ";

  /** Exit code for usage errors and bad input. */
  public static final int EXIT_USAGE = 2;

  /** Exit code for other failures. */
  public static final int EXIT_FAILURE = 1;

  @Spec CommandSpec spec;

  @Option(
      names = "--debug",
      scope = ScopeType.INHERIT,
      description = "Print the stack trace of an error.")
  boolean debug;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(),
        "a command is needed: "
            + spec.subcommands().keySet().stream()
                .filter(name -> !name.equals("help"))
                .collect(Collectors.joining(", "))
            + " (or help)");
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs a command line in this JVM with System.out/System.err and returns its exit code. */
  public static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /**
   * Runs a command line in this JVM, printing to {@code out} and {@code err}, and returns its exit
   * code.
   */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = new CommandLine(new SparkKpcaCli());
    cli.setOut(out);
    cli.setErr(err);
    cli.registerConverter(InputFormat.class, value -> lowerCaseEnum(InputFormat.class, value));
    cli.registerConverter(
        ScoreWriter.Format.class, value -> lowerCaseEnum(ScoreWriter.Format.class, value));
    cli.registerConverter(
        ExportCommand.Format.class, value -> lowerCaseEnum(ExportCommand.Format.class, value));
    cli.setParameterExceptionHandler(
        (e, arguments) -> {
          CommandLine command = e.getCommandLine();
          err.println(
              ERROR_PREFIX
                  + oneLine(e.getMessage())
                  + " (see '"
                  + command.getCommandSpec().qualifiedName()
                  + " --help')");
          err.flush();
          return EXIT_USAGE;
        });
    cli.setExecutionExceptionHandler(
        (e, command, parseResult) -> {
          boolean showTrace = debugRequested(parseResult);
          if (showTrace) {
            e.printStackTrace(err);
          }
          String outOfMemory = OutOfMemoryGuard.report(e);
          Throwable badInput = outOfMemory == null ? rootIllegalArgument(e) : null;
          String unreadable = badInput == null ? unreadableFile(e) : null;
          int code;
          if (outOfMemory != null) {
            err.println(ERROR_PREFIX + outOfMemory);
            code = EXIT_USAGE;
          } else if (badInput != null) {
            err.println(ERROR_PREFIX + oneLine(message(badInput)));
            code = EXIT_USAGE;
          } else if (unreadable != null) {
            err.println(ERROR_PREFIX + oneLine(unreadable));
            code = EXIT_USAGE;
          } else {
            err.println(
                ERROR_PREFIX
                    + oneLine(describe(e))
                    + (showTrace ? "" : " (run with --debug for the stack trace)"));
            code = EXIT_FAILURE;
          }
          err.flush();
          return code;
        });
    int code;
    try {
      code = cli.execute(args);
    } catch (OutOfMemoryError e) {
      // picocli passes Errors of the command's own thread through.
      err.println(ERROR_PREFIX + OutOfMemoryGuard.report(e));
      code = EXIT_USAGE;
    }
    out.flush();
    err.flush();
    return code;
  }

  /**
   * Parses an enum constant case-insensitively; the error lists the lower-case names users type.
   */
  static <E extends Enum<E>> E lowerCaseEnum(Class<E> type, String value) {
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(value.trim())) {
        return constant;
      }
    }
    throw new CommandLine.TypeConversionException(
        "expected one of "
            + Arrays.stream(type.getEnumConstants())
                .map(c -> c.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "))
            + " but was '"
            + value
            + "'");
  }

  /** Loads the input, caches it and validates it, with progress lines. */
  static LoadedData loadAndCache(ManagedSession spark, SourceOptions options, PrintWriter out) {
    long start = System.nanoTime();
    LoadedData data = DataSources.load(spark.session(), options);
    progress(out, "loading %s...", data.description());
    long rows = data.persistAndValidate();
    int partitions = data.partitions();
    progress(
        out,
        "loaded %d rows in %d partition%s (%.1f s)",
        rows,
        partitions,
        partitions == 1 ? "" : "s",
        (System.nanoTime() - start) / 1e9);
    return data;
  }

  /** Prints a progress line. */
  static void progress(PrintWriter out, String format, Object... args) {
    out.println("spark-kpca: " + String.format(Locale.ROOT, format, args));
    out.flush();
  }

  /** Fails with a usage error (exit code 2) when {@code condition} is false. */
  /** "a", "a or b", "a, b or c": the accepted values of an option, for its error message. */
  static String alternatives(java.util.List<String> values) {
    int n = values.size();
    return n <= 1
        ? String.join("", values)
        : String.join(", ", values.subList(0, n - 1)) + " or " + values.get(n - 1);
  }

  static void require(CommandSpec spec, boolean condition, String message) {
    if (!condition) {
      throw usage(spec, message);
    }
  }

  /** A usage error of the command {@code spec}. */
  static ParameterException usage(CommandSpec spec, String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  private static boolean debugRequested(ParseResult result) {
    for (ParseResult r = result; r != null; r = r.subcommand()) {
      if (r.hasMatchedOption("--debug")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The innermost {@link IllegalArgumentException} in the cause chain: the library's message about
   * the input, without the SparkException (or other) wrappers around it; null if there is none.
   */
  static Throwable rootIllegalArgument(Throwable e) {
    Throwable found = null;
    int depth = 0;
    for (Throwable t = e; t != null && depth < 50; t = t.getCause(), depth++) {
      // An output refused when it is written (another run wrote it after this one's check)
      // names its option and --overwrite, as the checks at the start do.
      // The deepest refusal, unless it is one that an outer refusal wraps with more words (e.g.
      // "Cannot load X from 'path': " before a table's own message).
      if ((t instanceof IllegalArgumentException
              || t instanceof org.apache.hadoop.fs.FileAlreadyExistsException)
          && !(found != null
              && found.getMessage() != null
              && t.getMessage() != null
              && found.getMessage().contains(t.getMessage()))) {
        found = t;
      }
    }
    return found;
  }

  /** Where Spark's and Parquet's messages name a file they could not read. */
  private static final java.util.List<java.util.regex.Pattern> UNREADABLE_FILE =
      java.util.List.of(
          java.util.regex.Pattern.compile(
              "Encountered error while reading file (\\S+?)\\.?(\\s|$)"),
          java.util.regex.Pattern.compile("^(\\S+) is not a Parquet file"),
          java.util.regex.Pattern.compile("Could not read footer for file: \\S*?path=([^;,}\\s]+)"),
          java.util.regex.Pattern.compile("Could not read footer for file (\\S+)"),
          java.util.regex.Pattern.compile("in block -?\\d+ in file (\\S+)"));

  /**
   * For a failure to read a corrupt or truncated file (a Parquet file of a model, a version or a
   * pending micro-batch): one line naming the file and the deepest cause; null for other failures.
   * It is the file's fault, not the command's, so it is reported as bad input (exit code 2).
   */
  static String unreadableFile(Throwable e) {
    String file = null;
    int depth = 0;
    for (Throwable t = e; t != null && depth < 50; t = t.getCause(), depth++) {
      String m = t.getMessage();
      if (m == null) {
        continue;
      }
      for (java.util.regex.Pattern p : UNREADABLE_FILE) {
        java.util.regex.Matcher matcher = p.matcher(m);
        if (matcher.find()) {
          file = matcher.group(1);
        }
      }
    }
    if (file == null) {
      return null;
    }
    Throwable deepest = e;
    depth = 0;
    for (Throwable t = e; t != null && depth < 50; t = t.getCause(), depth++) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        deepest = t;
      }
    }
    String detail = oneLine(describe(deepest));
    if (detail.length() > 200) {
      detail = detail.substring(0, 200) + "...";
    }
    return "cannot read " + file + ": the file is corrupt or truncated (" + detail + ")";
  }

  /** A message for an unexpected failure: the deepest cause that has a message. */
  static String describe(Throwable e) {
    Throwable best = e;
    int depth = 0;
    for (Throwable t = e; t != null && depth < 50; t = t.getCause(), depth++) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        best = t;
      }
    }
    String message = best.getMessage();
    return best.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getName() : m;
  }

  /** Collapses a possibly multi-line message into one line. */
  static String oneLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /** Reports this jar's version and the Spark and Java versions it runs with. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = "unknown";
      // The artifact is named with the Scala binary version it was built for
      // (spark-kpca-examples_2.13), the
      // one it runs with.
      String scalaBinary =
          scala.util.Properties.versionNumberString().replaceAll("^(\\d+\\.\\d+).*", "$1");
      try (InputStream in =
          SparkKpcaCli.class.getResourceAsStream(
              "/META-INF/maven/io.github.sparkkpca/spark-kpca-examples_"
                  + scalaBinary
                  + "/pom.properties")) {
        if (in != null) {
          Properties p = new Properties();
          p.load(in);
          version = p.getProperty("version", version);
        }
      } catch (java.io.IOException ignored) {
        // Keep "unknown".
      }
      return new String[] {
        "spark-kpca " + version,
        "Spark "
            + org.apache.spark.package$.MODULE$.SPARK_VERSION()
            + ", Java "
            + System.getProperty("java.version")
      };
    }
  }
}
