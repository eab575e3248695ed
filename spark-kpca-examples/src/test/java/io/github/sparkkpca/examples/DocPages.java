package io.github.sparkkpca.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The README and the documentation pages as the tests read them: the code blocks of a section, so
 * that tests run what the pages show. Tests run with the module directory as working directory, so
 * the repository root is one level up.
 */
public final class DocPages {

  /** README.md, from a module's directory. */
  public static final Path README = Path.of("..", "README.md");

  /** The site's getting-started page (install and a first fit from each language). */
  public static final Path GETTING_STARTED = Path.of("..", "docs", "getting-started.md");

  /** The site's command-line guide. */
  public static final Path COMMAND_LINE = Path.of("..", "docs", "guides", "command-line.md");

  /**
   * One fenced code block.
   *
   * @param code the block's text, without the fences
   * @param line the page line its first code line is on (1-based)
   */
  public record Block(String code, int line) {}

  private DocPages() {}

  /** A page's text. */
  public static String text(Path page) throws IOException {
    return Files.readString(page);
  }

  /**
   * The fenced blocks of {@code language} (e.g. "bash") in the section headed {@code heading} (a
   * whole heading line, e.g. "## Command line"), up to the next heading of the same or a higher
   * level; fails when the section or blocks are missing.
   */
  public static List<Block> blocks(String page, String heading, String language) {
    int section = page.indexOf(heading + "\n");
    assertTrue(section >= 0, "the page has no '" + heading + "' section");
    int level = heading.indexOf(' ');
    int end = -1;
    boolean inFence = false;
    for (int at = page.indexOf('\n', section) + 1; at > 0 && at < page.length(); ) {
      int next = page.indexOf('\n', at);
      String line = page.substring(at, next < 0 ? page.length() : next);
      if (line.startsWith("```")) {
        inFence = !inFence;
      } else if (!inFence && line.matches("#{1," + level + "} .*")) {
        end = at;
        break;
      }
      at = next + 1;
    }
    String fence = "```" + language + "\n";
    List<Block> blocks = new ArrayList<>();
    for (int at = page.indexOf(fence, section);
        at >= 0 && (end < 0 || at < end);
        at = page.indexOf(fence, at)) {
      int start = at + fence.length();
      int close = page.indexOf("```", start);
      blocks.add(
          new Block(
              page.substring(start, close), (int) page.substring(0, start).lines().count() + 1));
      at = close + 3;
    }
    assertTrue(
        !blocks.isEmpty(), "the page's '" + heading + "' section has no " + language + " block");
    return blocks;
  }

  /** The first {@code language} block of the section {@code heading}. */
  public static Block block(String page, String heading, String language) {
    return blocks(page, heading, language).get(0);
  }
}
