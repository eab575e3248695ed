package io.github.sparkkpca.pca;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Dense pre-images are refused before anything is allocated: above the heap and above an array. */
class PreimageLimitTest {

  @Test
  void densePreimagesBeyondAnArrayAreRefusedWhateverTheHeap() {
    // d = 2^22 and m = 600: m·d = 2.5·10⁹ entries, more than an int indexes, on a 1 TiB heap.
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Preimage.requireDenseFits(
                    "reconstructionCol 'rec'",
                    "leave reconstructionCol empty",
                    1 << 22,
                    600,
                    1L << 40));
    assertTrue(
        e.getMessage()
                .startsWith("reconstructionCol 'rec': pre-images are dense vectors of d = 4194304")
            && e.getMessage().contains("(m = 600), more entries than a Java array holds")
            && !e.getMessage().contains("\n"),
        e.getMessage());
    // Within both: nothing to refuse.
    Preimage.requireDenseFits("--reconstruction", "drop --reconstruction", 1000, 600, 1L << 30);
  }
}
