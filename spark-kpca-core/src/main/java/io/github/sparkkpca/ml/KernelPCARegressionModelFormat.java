package io.github.sparkkpca.ml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkkpca.feature.KernelExpansion;
import io.github.sparkkpca.kernel.Kernel;
import io.github.sparkkpca.pca.Projector;
import io.github.sparkkpca.persistence.ExpansionTable;
import io.github.sparkkpca.persistence.ModelChecks;
import io.github.sparkkpca.persistence.ModelTables;
import io.github.sparkkpca.persistence.Persistence;
import io.github.sparkkpca.persistence.StageWriter;
import io.github.sparkkpca.regression.LabelCoding;
import io.github.sparkkpca.regression.WidthDiagnostics;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The saved format of a {@link KernelPCARegressionModel}: its writer and reader and the schemas of
 * its data files. Package-private: the model's {@code write()} and {@code read()} are the API.
 */
final class KernelPCARegressionModelFormat {

  private KernelPCARegressionModelFormat() {}

  static final StructType SUMMARY =
      new StructType()
          .add("numFeatures", DataTypes.IntegerType, false)
          .add("labelMode", DataTypes.StringType, false)
          .add("classes", SQLDataTypes.VectorType(), false)
          .add("offset", SQLDataTypes.VectorType(), false)
          .add("chosenWidth", DataTypes.IntegerType, false)
          .add("labelSquares", SQLDataTypes.VectorType(), false)
          .add("signalVariance", SQLDataTypes.VectorType(), false)
          .add("noiseVariance", SQLDataTypes.VectorType(), false)
          .add("numRows", DataTypes.LongType, false)
          .add("landmarkSelection", DataTypes.StringType, false);

  static final StructType WIDTHS =
      new StructType()
          .add("index", DataTypes.IntegerType, false)
          .add("gamma", DataTypes.DoubleType, false)
          .add("eigenvalues", SQLDataTypes.VectorType(), false)
          .add("coefficients", SQLDataTypes.VectorType(), false)
          .add("columns", DataTypes.IntegerType, false)
          .add("logLikelihood", SQLDataTypes.VectorType(), false)
          .add("dimension", DataTypes.IntegerType, false)
          .add("leaveOneOut", SQLDataTypes.VectorType(), false)
          .add("trainingLoss", SQLDataTypes.VectorType(), false);

  /**
   * {@code metadata} (params: kernel, γ and d as used) and {@code data/}: {@code summary} (one
   * row), {@code support} (landmark j with its c expansion coefficients α_j) and {@code widths}
   * (one row of diagnostics per kernel width). Everything is checked finite when written and read.
   */
  static final class Writer extends StageWriter {
    private final KernelPCARegressionModel model;

    Writer(KernelPCARegressionModel model) {
      this.model = model;
    }

    @Override
    public void saveImpl(String path) {
      KernelExpansion expansion = model.fitted().kernelExpansion();
      int d = expansion.support().dim();
      ModelChecks.Finite.require(expansion.coefficients(), "the expansion coefficients");
      ModelChecks.Finite.require(model.fitted().offset(), "the intercepts");
      ObjectNode extra = Persistence.JSON.createObjectNode();
      extra.put("model", "kernelPCARegression");
      FeatureNames.addTo(extra, model.featureNames());
      Persistence.saveMetadata(model, path, sparkSession(), extra, model.fittedParams());
      SparkSession spark = sparkSession();
      ModelTables.writeRow(
          RowFactory.create(
              d,
              model.labelCoding().mode(),
              new DenseVector(model.labelCoding().classes()),
              new DenseVector(model.fitted().offset()),
              model.chosenWidth(),
              vector(model.labelSquares(), "‖Y‖²"),
              vector(model.signalVariance(), "σ₁²"),
              vector(model.noiseVariance(), "σ₂²"),
              model.numTrainingRows(),
              model.landmarkSelection()),
          SUMMARY,
          path + "/data/summary",
          spark);
      ExpansionTable.write(expansion, path + "/data/support", spark);
      List<Row> widthRows = new ArrayList<>();
      for (int w = 0; w < model.widths().size(); w++) {
        WidthDiagnostics x = model.widths().get(w);
        widthRows.add(
            RowFactory.create(
                w,
                x.gamma(),
                vector(x.eigenvalues(), "eigenvalues"),
                vector(x.coefficients(), "coefficients"),
                x.columns(),
                vector(x.logLikelihood(), "log-likelihood"),
                x.dimension(),
                vector(x.leaveOneOut(), "leave-one-out"),
                vector(x.trainingLoss(), "training loss")));
      }
      spark.createDataFrame(widthRows, WIDTHS).coalesce(1).write().parquet(path + "/data/widths");
    }

    private static DenseVector vector(double[] values, String what) {
      return new DenseVector(ModelChecks.Finite.require(values, what));
    }
  }

  static final class Reader extends MLReader<KernelPCARegressionModel> {
    @Override
    public KernelPCARegressionModel load(String path) {
      SparkSession spark = sparkSession();
      JsonNode metadata = Persistence.loadMetadata(path, spark, KernelPCARegressionModel.class);
      String what = "Cannot load KernelPCARegressionModel from '" + path + "': ";
      Row s =
          ModelTables.single(
              ModelTables.read(spark, path + "/data/summary", SUMMARY, what), "summary", what);
      int d = s.getInt(0);
      LabelCoding coding = new LabelCoding(s.getString(1), ((Vector) s.get(2)).toArray());
      double[] offset = finite((Vector) s.get(3), what + "the intercepts");
      int c = coding.columns();
      if (offset.length != c) {
        throw new IllegalArgumentException(
            what + offset.length + " intercepts for " + c + " label columns");
      }
      // Params first: the kernel comes from them.
      KernelPCARegressionModel shell =
          new KernelPCARegressionModel(
              metadata.get("uid").asText(),
              null,
              coding,
              List.of(),
              0,
              new double[0],
              new double[0],
              new double[0],
              0,
              "",
              0);
      Persistence.applyParams(shell, metadata, path);
      Kernel kernel =
          new Kernel(
              shell.getKernelType(),
              Double.isNaN(shell.getGamma()) ? 1.0 : shell.getGamma(),
              shell.getDegree(),
              shell.getCoef0());
      List<Row> support = ExpansionTable.read(spark, path + "/data/support", what);
      int m = support.size();
      JsonNode recordedM = metadata.path("paramMap").path("numLandmarks");
      if (recordedM.isInt() && recordedM.asInt() != m) {
        throw new IllegalArgumentException(
            what
                + "its metadata records numLandmarks = "
                + recordedM.asInt()
                + " but data/support holds "
                + m
                + " landmarks");
      }
      KernelExpansion expansion;
      try {
        // The recorded sizes against the rows, before anything of their size is allocated.
        ModelChecks.Sizes.positive(d, "numFeatures");
        expansion =
            ExpansionTable.expansion(support, kernel, d, c, "data/summary's label coding gives c");
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(what + e.getMessage(), e);
      }
      Projector predictor = new Projector(expansion, c, offset, 0.0);
      List<Row> widthRows =
          new ArrayList<>(ModelTables.read(spark, path + "/data/widths", WIDTHS, what));
      widthRows.sort(java.util.Comparator.comparingInt(r -> r.getInt(0)));
      List<WidthDiagnostics> widths = new ArrayList<>();
      for (Row r : widthRows) {
        widths.add(
            new WidthDiagnostics(
                r.getDouble(1),
                finite((Vector) r.get(2), what),
                finite((Vector) r.get(3), what),
                r.getInt(4),
                finite((Vector) r.get(5), what),
                r.getInt(6),
                finite((Vector) r.get(7), what),
                finite((Vector) r.get(8), what)));
      }
      int chosen = s.getInt(4);
      if (widths.isEmpty() || chosen < 0 || chosen >= widths.size()) {
        throw new IllegalArgumentException(
            what + "data/widths holds " + widths.size() + " rows, chosen width " + chosen);
      }
      KernelPCARegressionModel model =
          new KernelPCARegressionModel(
              shell.uid(),
              predictor,
              coding,
              widths,
              chosen,
              finite((Vector) s.get(5), what),
              finite((Vector) s.get(6), what),
              finite((Vector) s.get(7), what),
              s.getLong(8),
              s.getString(9),
              shell.getDimension());
      shell.copyParamsTo(model);
      model.readFeatureNames(metadata, path);
      // γ and m are read from the predictor, not kept as params.
      model.clear(model.gamma());
      model.clear(model.numLandmarks());
      return model;
    }

    private static double[] finite(Vector v, String what) {
      return ModelChecks.Finite.require(v.toArray(), what);
    }
  }
}
