package io.github.sparkkpca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/design.md's code map ("Where things are") names every main source file of the core, one link
 * each, and names no file that is gone: a new core file fails this test, naming the file, until its
 * line is added under its package.
 */
class CodeMapTest {

  /** Where the code map's links point, relative to docs/. */
  private static final String LINK_PREFIX = "../spark-kpca-core/src/main/java/io/github/sparkkpca/";

  private static final Pattern LINK =
      Pattern.compile("\\]\\(" + Pattern.quote(LINK_PREFIX) + "([A-Za-z0-9_/]+\\.java)\\)");

  /** The module directory: the test classes are compiled to target/test-classes under it. */
  private static Path moduleDir() {
    try {
      Path classes =
          Path.of(CodeMapTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return classes.getParent().getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The core's main source files as package/File.java, package-info.java left out. */
  private static Set<String> coreFiles() throws IOException {
    Path root = moduleDir().resolve("src/main/java/io/github/sparkkpca");
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("package-info.java"))
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  /** The files the section "Where things are" of {@code design} links to. */
  static Set<String> mapped(String design) {
    int start = design.indexOf("\n## Where things are");
    assertTrue(start >= 0, "docs/design.md has no section '## Where things are'");
    int end = design.indexOf("\n## ", start + 1);
    Matcher links = LINK.matcher(design.substring(start, end < 0 ? design.length() : end));
    Set<String> out = new TreeSet<>();
    while (links.find()) {
      out.add(links.group(1));
    }
    return out;
  }

  /** What is wrong with the map: the files it misses and the files it names that do not exist. */
  static List<String> problems(Set<String> files, Set<String> mapped) {
    Stream<String> missing =
        files.stream()
            .filter(f -> !mapped.contains(f))
            .map(f -> f + " is not in the code map: add its line under `" + packageOf(f) + "/`");
    Stream<String> gone =
        mapped.stream()
            .filter(f -> !files.contains(f))
            .map(f -> f + " is in the code map but not in the core");
    return Stream.concat(missing, gone).toList();
  }

  private static String packageOf(String file) {
    int slash = file.lastIndexOf('/');
    return slash < 0 ? "(root)" : file.substring(0, slash);
  }

  @Test
  void theCodeMapNamesEveryCoreFile() throws IOException {
    Path design = moduleDir().resolveSibling("docs").resolve("design.md");
    Set<String> files = coreFiles();
    assertTrue(files.size() > 100, "the core's sources were not found: " + files);
    List<String> problems =
        problems(files, mapped(Files.readString(design, StandardCharsets.UTF_8)));
    assertEquals(List.of(), problems, "docs/design.md, section 'Where things are'");
  }

  /** The check is not vacuous: a file left out, or one listed that is gone, is named. */
  @Test
  void aMissingOrStaleLineIsNamed() {
    String design =
        "# d\n\n## Where things are\n\n- [`A.java`]("
            + LINK_PREFIX
            + "linalg/A.java): a\n- [`C.java`]("
            + LINK_PREFIX
            + "kernel/C.java): c\n\n## Roadmap\n\n- [`B.java`]("
            + LINK_PREFIX
            + "linalg/B.java): outside the section\n";
    assertEquals(Set.of("linalg/A.java", "kernel/C.java"), mapped(design));
    assertEquals(
        List.of(
            "linalg/B.java is not in the code map: add its line under `linalg/`",
            "kernel/C.java is in the code map but not in the core"),
        problems(new TreeSet<>(Set.of("linalg/A.java", "linalg/B.java")), mapped(design)));
  }
}
