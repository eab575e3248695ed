package io.github.sparkkpca.landmarks;

import io.github.sparkkpca.execution.DataScan;
import io.github.sparkkpca.execution.DistributedPass;
import io.github.sparkkpca.execution.SmallestKeys;
import io.github.sparkkpca.kernel.LandmarkKernel;

/**
 * m rows without replacement with probabilities proportional to approximate ridge leverage scores
 * from a uniform pilot ({@link RidgeLeverageScores}): one pass over the data.
 */
final class LeverageSampler implements LandmarkSampler {

  private final double regularization;

  LeverageSampler(double regularization) {
    this.regularization = regularization;
  }

  @Override
  public Landmarks select(Input input) {
    DataScan scan = input.scan();
    int m = input.m();
    int d = input.d();
    LandmarkKernel pilot = new LandmarkKernel(input.kernel(), scan.sampleRows());
    RidgeLeverageScores sampler =
        new RidgeLeverageScores(pilot, input.n(), regularization, m, input.seed());
    int blockSize = input.blockSizes().applyAsInt(pilot.blockWidth(scan.maxStoredEntries()));
    String column = input.column();
    // A row's sampling key depends on its position in the data, so that repeated rows are drawn as
    // rows.
    long[] firstRows = scan.firstRows(input.vectors().getNumPartitions());
    SmallestKeys kept =
        DistributedPass.run(
            input.vectors().context(),
            input.jobPrefix() + "sample " + m + " landmarks by approximate ridge leverage scores",
            input.vectors(),
            sampler,
            RidgeLeverageScores.class,
            (shared, partition, rows) ->
                shared.samplePartition(rows, firstRows[partition], blockSize, column),
            SmallestKeys::merge);
    return new Landmarks(
        kept.rowSetByKey(d),
        "leverage: "
            + kept.size()
            + " distinct rows of "
            + input.n()
            + ", rows sampled without replacement proportionally to approximate ridge leverage scores, "
            + "repeated rows merged (lambda = "
            + regularization
            + " x mean k(x,x), n*lambda = "
            + sampler.ridge()
            + ", pilot of "
            + scan.sampleSize()
            + " uniform rows)"
            + LandmarkSampler.fewerNote(input));
  }
}
