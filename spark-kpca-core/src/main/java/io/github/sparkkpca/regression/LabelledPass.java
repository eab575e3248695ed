package io.github.sparkkpca.regression;

import io.github.sparkkpca.feature.FeatureMap;
import io.github.sparkkpca.linalg.RowBlock;
import io.github.sparkkpca.pca.Projector;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import scala.Tuple2;

/**
 * The partition-local loops of the regression fits, over (features, label) rows in blocks of b: the
 * labelled statistics of several feature maps at once (one per kernel width: every width of a grid
 * in one pass over the data), and the leave-one-out and training-loss sums of fitted regressions.
 */
public final class LabelledPass {

  private LabelledPass() {}

  /**
   * The labelled statistics of one partition under each map (all maps share the input dimension).
   * Memory: one r×r scatter per map, plus one r×b feature block.
   */
  public static List<LabelledStatistics> statistics(
      List<FeatureMap> maps,
      LabelCoding coding,
      Iterator<Tuple2<Vector, Double>> rows,
      int blockSize,
      String column) {
    int c = coding.columns();
    int dim = maps.get(0).inputDim();
    List<LabelledStatistics> out = new ArrayList<>(maps.size());
    int scratchSize = 0;
    int maxDim = 0;
    for (FeatureMap map : maps) {
      out.add(new LabelledStatistics(map.outputDim(), c));
      scratchSize = Math.max(scratchSize, map.scratchSize(blockSize));
      maxDim = Math.max(maxDim, map.outputDim());
    }
    // Every width shares the landmarks, so one block form serves all maps.
    RowBlock block = maps.get(0).newBlock(blockSize);
    double[] scratch = new double[scratchSize];
    double[] features = new double[maxDim * blockSize];
    double[] labels = new double[c * blockSize];
    double[] labelCopy = new double[c * blockSize];
    while (rows.hasNext()) {
      Tuple2<Vector, Double> row = rows.next();
      coding.encode(row._2(), labels, block.size() * c);
      block.add(row._1(), column);
      if (block.isFull() || !rows.hasNext()) {
        for (int w = 0; w < maps.size(); w++) {
          FeatureMap map = maps.get(w);
          map.map(block, scratch, features);
          System.arraycopy(labels, 0, labelCopy, 0, c * block.size());
          out.get(w).addBlock(features, labelCopy, block.size(), map.diagonalSum(block));
        }
        block.clear();
      }
    }
    return out;
  }

  /** Merges the per-map statistics of b into a (element by element; returns a). */
  public static List<LabelledStatistics> merge(
      List<LabelledStatistics> a, List<LabelledStatistics> b) {
    for (int w = 0; w < a.size(); w++) {
      a.get(w).merge(b.get(w));
    }
    return a;
  }

  /**
   * What the executors need to score the training rows of one fitted regression for every d ≤ q:
   * the scores t_i(x) of its q components, n·Σ_i, β and ȳ.
   */
  public record Scorer(
      Projector scores,
      int q,
      double[] scoreSquares,
      double[] beta,
      int columns,
      boolean intercept,
      double[] labelMean,
      long n)
      implements Serializable {

    public static Scorer of(ComponentRegression regression) {
      return new Scorer(
          regression.pca().projector(),
          regression.q(),
          regression.scoreSquares(),
          regression.beta(),
          regression.statistics().labels(),
          regression.intercept(),
          regression.statistics().labelMean(),
          regression.statistics().count());
    }
  }

  /**
   * Sums over the training rows, for each d = 1..q: of the squared leave-one-out residuals Σ_c
   * ((y_c − ŷ_c)/(1 − S_jj))² (the hat matrix S = Σ_{i≤d} v_iv_iᵀ [+ 11ᵀ/n] is diagonal in the
   * eigenvector basis, so S_jj = Σ_{i≤d} t_i(x_j)²/(nΣ_i) [+ 1/n]; Wahba's closed form, as Braun et
   * al.'s "dim (cv)"), and of the training loss of ŷ ({@link LabelCoding#loss}).
   */
  public static final class Sums implements Serializable {
    final double[][] leaveOneOut;
    final double[][] loss;

    Sums(List<Scorer> scorers) {
      leaveOneOut = new double[scorers.size()][];
      loss = new double[scorers.size()][];
      for (int w = 0; w < scorers.size(); w++) {
        leaveOneOut[w] = new double[scorers.get(w).q()];
        loss[w] = new double[scorers.get(w).q()];
      }
    }

    public Sums merge(Sums other) {
      for (int w = 0; w < leaveOneOut.length; w++) {
        for (int d = 0; d < leaveOneOut[w].length; d++) {
          leaveOneOut[w][d] += other.leaveOneOut[w][d];
          loss[w][d] += other.loss[w][d];
        }
      }
      return this;
    }

    /** Σ_j LOO residual² for d = 1..q of regression w. */
    public double[] leaveOneOut(int w) {
      return leaveOneOut[w].clone();
    }

    /** Σ_j loss for d = 1..q of regression w. */
    public double[] loss(int w) {
      return loss[w].clone();
    }
  }

  /** The {@link Sums} of one partition. */
  public static Sums scores(
      List<Scorer> scorers,
      LabelCoding coding,
      Iterator<Tuple2<Vector, Double>> rows,
      int blockSize,
      String column) {
    Sums sums = new Sums(scorers);
    int c = coding.columns();
    int dim = scorers.get(0).scores().inputDim();
    int scratchSize = 0;
    int maxK = 0;
    for (Scorer s : scorers) {
      scratchSize = Math.max(scratchSize, s.scores().scratchSize(blockSize));
      maxK = Math.max(maxK, s.scores().numComponents());
    }
    RowBlock block = scorers.get(0).scores().newBlock(blockSize);
    double[] scratch = new double[scratchSize];
    double[] t = new double[maxK * blockSize];
    double[] labels = new double[c * blockSize];
    double[] raw = new double[blockSize];
    double[] fitted = new double[c];
    while (rows.hasNext()) {
      Tuple2<Vector, Double> row = rows.next();
      raw[block.size()] = row._2();
      coding.encode(row._2(), labels, block.size() * c);
      block.add(row._1(), column);
      if (block.isFull() || !rows.hasNext()) {
        for (int w = 0; w < scorers.size(); w++) {
          Scorer s = scorers.get(w);
          int k = s.scores().numComponents();
          s.scores().project(block, scratch, t, null);
          for (int j = 0; j < block.size(); j++) {
            double leverage = s.intercept() ? 1.0 / s.n() : 0.0;
            for (int col = 0; col < c; col++) {
              fitted[col] = s.intercept() ? s.labelMean()[col] : 0.0;
            }
            for (int d = 1; d <= s.q(); d++) {
              double ti = t[j * k + d - 1];
              leverage += ti * ti / s.scoreSquares()[d - 1];
              double residuals = 0;
              for (int col = 0; col < c; col++) {
                fitted[col] += s.beta()[d - 1 + col * s.q()] * ti;
                double e = labels[j * c + col] - fitted[col];
                residuals += e * e;
              }
              double denominator = 1.0 - leverage;
              sums.leaveOneOut[w][d - 1] +=
                  denominator > 1e-12
                      ? residuals / (denominator * denominator)
                      : 1e250; // leverage 1: the row cannot be left out
              sums.loss[w][d - 1] += coding.loss(raw[j], fitted, 0);
            }
          }
        }
        block.clear();
      }
    }
    return sums;
  }
}
