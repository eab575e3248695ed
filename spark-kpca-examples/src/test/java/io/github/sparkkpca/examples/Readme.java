package io.github.sparkkpca.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The repository's README.md as the tests read it: the code blocks of a section, so that tests run
 * what the README shows. Tests run with the module directory as working directory, so the README is
 * one level up.
 */
public final class Readme {

  /** README.md, from a module's directory. */
  public static final Path PATH = Path.of("..", "README.md");

  /**
   * One fenced code block.
   *
   * @param code the block's text, without the fences
   * @param line the README line its first code line is on (1-based)
   */
  public record Block(String code, int line) {}

  private Readme() {}

  /** The README's text. */
  public static String text() throws IOException {
    return Files.readString(PATH);
  }

  /**
   * The fenced blocks of {@code language} (e.g. "bash") in the section headed {@code heading} (e.g.
   * "## Command line"), up to the next section of the same level; fails when the section or blocks
   * are missing.
   */
  public static List<Block> blocks(String readme, String heading, String language) {
    int section = readme.indexOf(heading + "\n");
    assertTrue(section >= 0, "README has no '" + heading + "' section");
    int end = readme.indexOf("\n## ", section + heading.length());
    String fence = "```" + language + "\n";
    List<Block> blocks = new ArrayList<>();
    for (int at = readme.indexOf(fence, section);
        at >= 0 && (end < 0 || at < end);
        at = readme.indexOf(fence, at)) {
      int start = at + fence.length();
      int close = readme.indexOf("```", start);
      blocks.add(
          new Block(
              readme.substring(start, close),
              (int) readme.substring(0, start).lines().count() + 1));
      at = close + 3;
    }
    assertTrue(
        !blocks.isEmpty(), "README's '" + heading + "' section has no " + language + " block");
    return blocks;
  }

  /** The first {@code language} block of the section {@code heading}. */
  public static Block block(String readme, String heading, String language) {
    return blocks(readme, heading, language).get(0);
  }
}
