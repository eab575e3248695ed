package io.github.sparkkpca.examples.reproduce;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.data.MnistIdx;
import java.nio.file.Files;
import java.nio.file.Path;

/** The MNIST files the reproduction tests need; their absence is a failure, not a skip. */
final class Mnist {

  private Mnist() {}

  /** The default MNIST directory, after asserting that the training files are there. */
  static Path requireTrainingFiles() {
    Path dir = MnistIdx.defaultDirectory();
    for (String name : new String[] {"train-images-idx3-ubyte", "train-labels-idx1-ubyte"}) {
      assertTrue(
          Files.isRegularFile(dir.resolve(name)) || Files.isRegularFile(dir.resolve(name + ".gz")),
          () ->
              "MNIST file "
                  + name
                  + " is missing in "
                  + dir
                  + ": run bin/fetch-mnist (the build fetches it "
                  + "before the tests) or set $MNIST_DIR");
    }
    return dir;
  }
}
