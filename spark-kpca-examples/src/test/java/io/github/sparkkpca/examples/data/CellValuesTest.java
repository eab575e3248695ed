package io.github.sparkkpca.examples.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The fast cell parser reads exactly what {@link Double#parseDouble} reads, bit for bit. */
class CellValuesTest {

  /** The JDK's reading of a text: its bits, or "refused". */
  private static String jdk(String text) {
    try {
      return Long.toHexString(Double.doubleToRawLongBits(Double.parseDouble(text)));
    } catch (NumberFormatException e) {
      return "refused";
    }
  }

  private static String fast(String text) {
    try {
      return Long.toHexString(Double.doubleToRawLongBits(CellValues.parseNumber(text)));
    } catch (NumberFormatException e) {
      return "refused";
    }
  }

  @Test
  void readsRandomNumbersInEveryFormatAsTheJdk() {
    SplittableRandom random = new SplittableRandom(42);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      double gaussian = random.nextGaussian() * Math.pow(10, random.nextInt(-8, 9));
      double anyBits = Double.longBitsToDouble(random.nextLong());
      texts.add(String.format(Locale.ROOT, "%.6f", gaussian));
      texts.add(String.format(Locale.ROOT, "%.17g", gaussian));
      texts.add(String.format(Locale.ROOT, "%.25e", gaussian));
      texts.add(Double.toString(anyBits));
      texts.add(Long.toString(random.nextLong()));
      // More digits than a double holds, and halfway cases at the 17th digit.
      texts.add(random.nextLong(1L << 53) + "" + random.nextInt(1_000_000) + "5e-" + i % 330);
    }
    for (String text : texts) {
      assertEquals(jdk(text), fast(text), text);
    }
  }

  @Test
  void acceptsAndRefusesTheSameSyntax() {
    String[] texts = {
      "0",
      "-0",
      "+0.5",
      ".5",
      "5.",
      " 1.5",
      "1.5 ",
      "\t2\n",
      "1e3",
      "1E-3",
      "1d",
      "1f",
      "1D",
      "0x1p3",
      "0x1.8p1",
      "NaN",
      "-NaN",
      "Infinity",
      "-Infinity",
      "+Infinity",
      "1e400",
      "-1e400",
      "4.9e-324",
      "2.4703282292062327e-324",
      "2.4703282292062328e-324",
      "1.7976931348623157e308",
      "1.7976931348623158e308",
      "",
      " ",
      "-",
      "+",
      ".",
      "e5",
      "1e",
      "1e+",
      "1_0",
      "1,5",
      "0x",
      "--1",
      "1.2.3",
      "inf",
      "nan",
      "١",
      "1e5x",
      "0x1p",
      "00012.50000",
    };
    for (String text : texts) {
      assertEquals(jdk(text), fast(text), "'" + text + "'");
    }
  }
}
