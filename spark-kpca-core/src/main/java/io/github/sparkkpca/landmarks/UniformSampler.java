package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.DataScan;

/**
 * m rows uniformly without replacement: the sample the validating scan drew (no pass of its own).
 */
final class UniformSampler implements LandmarkSampler {

  @Override
  public Landmarks select(Input input) {
    DataScan scan = input.scan();
    return new Landmarks(
        scan.sampleRows(),
        "uniform: "
            + scan.sampleSize()
            + " distinct rows of "
            + input.n()
            + ", rows sampled uniformly without replacement, repeated rows merged"
            + LandmarkSampler.fewerNote(input));
  }
}
