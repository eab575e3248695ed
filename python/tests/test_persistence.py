"""save/load from Python, Pipelines and CrossValidator with our stages, and persistence across languages."""

import numpy as np
import pytest
from pyspark.ml import Pipeline, PipelineModel, Transformer
from pyspark.ml.feature import StandardScaler, VectorAssembler
from pyspark.ml.util import DefaultParamsReadable, DefaultParamsWritable
from pyspark.ml.tuning import CrossValidator, CrossValidatorModel, ParamGridBuilder
from pyspark.sql import DataFrame

from spark_kpca.ml import (
    KernelPCARegressionModel,
    KernelPCARegressor,
    NystromKernelPCA,
    NystromKernelPCAModel,
    RandomFeatureKernelPCA,
    RandomFeatureKernelPCAModel,
    ReconstructionErrorEvaluator,
    load_model,
)


@pytest.fixture(scope="module")
def raw(spark, blobs):
    _, data = blobs
    rows = [(i, *map(float, r)) for i, r in enumerate(data)]
    return spark.createDataFrame(rows, ["id", "a", "b", "c"]).repartition(2).cache()


def pipeline() -> Pipeline:
    return Pipeline(
        stages=[
            VectorAssembler(inputCols=["a", "b", "c"], outputCol="raw"),
            StandardScaler(inputCol="raw", outputCol="features"),
            NystromKernelPCA(k=2, numLandmarks=30, gamma=0.4, seed=3, residualCol="residual"),
        ]
    )


def rows_of(df: DataFrame):
    return [
        (r.id, r.kpca.toArray().tolist(), r.residual)
        for r in df.orderBy("id").select("id", "kpca", "residual").collect()
    ]


def test_stage_save_load_round_trip(tmp_path, blobs):
    df, _ = blobs
    est = NystromKernelPCA(k=2, numLandmarks=25, kernel="laplacian", seed=11, spectrum="full")
    est.save(str(tmp_path / "est"))
    loaded = NystromKernelPCA.load(str(tmp_path / "est"))
    assert isinstance(loaded, NystromKernelPCA) and loaded.uid == est.uid
    assert (loaded.getK(), loaded.getNumLandmarks(), loaded.getKernel(), loaded.getSeed()) == (2, 25, "laplacian", 11)
    model = est.fit(df)
    model.save(str(tmp_path / "model"))
    again = NystromKernelPCAModel.load(str(tmp_path / "model"))
    assert isinstance(again, NystromKernelPCAModel) and again.uid == model.uid
    assert list(again.eigenvalues.toArray()) == list(model.eigenvalues.toArray())
    assert again.getGamma() == model.getGamma()
    assert again.getKernel() == model.getKernel() == "laplacian" and again.getNumLandmarks() == 25
    assert again.getGamma() == again._java_obj.getGamma() > 0  # the median heuristic's γ, as saved
    with pytest.raises(OSError):
        model.save(str(tmp_path / "model"))  # exists: Spark refuses without overwrite()
    model.write().overwrite().save(str(tmp_path / "model"))
    rf = RandomFeatureKernelPCA(k=2, numRandomFeatures=32, seed=1).fit(df)
    rf.save(str(tmp_path / "rf"))
    assert isinstance(RandomFeatureKernelPCAModel.load(str(tmp_path / "rf")), RandomFeatureKernelPCAModel)
    assert type(load_model(str(tmp_path / "rf"))) is RandomFeatureKernelPCAModel
    assert type(load_model(str(tmp_path / "model"))) is NystromKernelPCAModel


def test_pipeline_round_trip_gives_our_classes(tmp_path, raw):
    pipe = pipeline()
    pipe.save(str(tmp_path / "pipe"))
    loaded_pipe = Pipeline.load(str(tmp_path / "pipe"))
    assert isinstance(loaded_pipe.getStages()[2], NystromKernelPCA)
    assert loaded_pipe.getStages()[2].getNumLandmarks() == 30
    model = pipe.fit(raw)
    model.save(str(tmp_path / "model"))
    loaded = PipelineModel.load(str(tmp_path / "model"))
    stage = loaded.stages[2]
    assert type(stage) is NystromKernelPCAModel
    assert stage.numSupportPoints == 30
    assert (stage.getGamma(), stage.getNumLandmarks(), stage.getKernel()) == (0.4, 30, "rbf")
    assert rows_of(loaded.transform(raw)) == rows_of(model.transform(raw))


def test_pipeline_saved_from_python_loads_in_java(tmp_path, spark, jvm, raw):
    model = pipeline().fit(raw)
    path = str(tmp_path / "py-model")
    model.save(path)
    java_model = jvm.org.apache.spark.ml.PipelineModel.load(path)
    assert java_model.stages()[2].getClass().getName() == "io.github.sparkkpca.ml.NystromKernelPCAModel"
    java_scored = DataFrame(java_model.transform(raw._jdf), spark)
    assert rows_of(java_scored) == rows_of(model.transform(raw))


def test_pipeline_saved_from_java_loads_in_python(tmp_path, spark, jvm, raw):
    gateway = spark.sparkContext._gateway
    stages = gateway.new_array(jvm.org.apache.spark.ml.PipelineStage, 3)
    stages[0] = (
        jvm.org.apache.spark.ml.feature.VectorAssembler()
        .setInputCols(gateway.new_array(jvm.java.lang.String, 3))
        .setOutputCol("raw")
    )
    cols = gateway.new_array(jvm.java.lang.String, 3)
    cols[0], cols[1], cols[2] = "a", "b", "c"
    stages[0].setInputCols(cols)
    stages[1] = jvm.org.apache.spark.ml.feature.StandardScaler().setInputCol("raw").setOutputCol("features")
    stages[2] = (
        jvm.io.github.sparkkpca.ml.NystromKernelPCA()
        .setK(2)
        .setNumLandmarks(30)
        .setGamma(0.4)
        .setSeed(3)
        .setResidualCol("residual")
    )
    java_model = jvm.org.apache.spark.ml.Pipeline().setStages(stages).fit(raw._jdf)
    path = str(tmp_path / "java-model")
    java_model.save(path)
    loaded = PipelineModel.load(path)
    assert type(loaded.stages[2]) is NystromKernelPCAModel
    java_scored = DataFrame(java_model.transform(raw._jdf), spark)
    assert rows_of(loaded.transform(raw)) == rows_of(java_scored)
    # the same fit from Python gives the same scores, bit for bit
    assert rows_of(pipeline().fit(raw).transform(raw)) == rows_of(java_scored)


def test_cross_validator_with_reconstruction_error(tmp_path, blobs):
    df, _ = blobs
    kpca = NystromKernelPCA(k=2, numLandmarks=30, seed=5, residualCol="residual")
    grid = ParamGridBuilder().addGrid(kpca.gamma, [0.05, 5.0]).build()
    evaluator = ReconstructionErrorEvaluator()
    assert evaluator.getResidualCol() == "residual" and not evaluator.isLargerBetter()
    cv = CrossValidator(estimator=kpca, estimatorParamMaps=grid, evaluator=evaluator, numFolds=2, seed=7)
    cv_model = cv.fit(df)
    metrics = cv_model.avgMetrics
    assert len(metrics) == 2 and all(m > 0 for m in metrics)
    best = int(np.argmin(metrics))
    assert cv_model.bestModel.getGamma() == [0.05, 5.0][best]
    assert isinstance(cv_model.bestModel, NystromKernelPCAModel)
    scored = cv_model.bestModel.transform(df)
    assert evaluator.evaluate(scored) == pytest.approx(
        np.mean([r.residual for r in scored.select("residual").collect()]), rel=1e-12
    )
    cv_model.save(str(tmp_path / "cv"))
    loaded = CrossValidatorModel.load(str(tmp_path / "cv"))
    assert isinstance(loaded.bestModel, NystromKernelPCAModel)
    assert isinstance(loaded.getEvaluator(), ReconstructionErrorEvaluator)
    assert list(loaded.bestModel.eigenvalues.toArray()) == list(cv_model.bestModel.eigenvalues.toArray())


def test_cross_validated_pipeline_with_the_evaluator_round_trips(tmp_path, raw):
    """The evaluator's Java package (io.github.sparkkpca.evaluation) resolves to our class on load."""
    pipe = Pipeline(
        stages=[
            VectorAssembler(inputCols=["a", "b", "c"], outputCol="features"),
            NystromKernelPCA(k=2, numLandmarks=20, seed=3, residualCol="residual"),
        ]
    )
    kpca = pipe.getStages()[1]
    grid = ParamGridBuilder().addGrid(kpca.gamma, [0.05, 5.0]).build()
    evaluator = ReconstructionErrorEvaluator()
    cv = CrossValidator(estimator=pipe, estimatorParamMaps=grid, evaluator=evaluator, numFolds=2, seed=7)
    cv_model = cv.fit(raw)
    best = [0.05, 5.0][int(np.argmin(cv_model.avgMetrics))]
    assert cv_model.bestModel.stages[1].getGamma() == best
    cv_model.save(str(tmp_path / "cv"))
    loaded = CrossValidatorModel.load(str(tmp_path / "cv"))
    assert type(loaded.getEvaluator()) is ReconstructionErrorEvaluator
    assert loaded.getEvaluator()._java_obj.getClass().getName() == (
        "io.github.sparkkpca.evaluation.ReconstructionErrorEvaluator"
    )
    stage = loaded.bestModel.stages[1]
    assert type(stage) is NystromKernelPCAModel
    assert (stage.getGamma(), stage.getNumLandmarks()) == (best, 20)
    assert rows_of(loaded.bestModel.transform(raw)) == rows_of(cv_model.bestModel.transform(raw))
    assert loaded.avgMetrics == cv_model.avgMetrics
    cv.save(str(tmp_path / "cv-estimator"))
    again = CrossValidator.load(str(tmp_path / "cv-estimator"))
    assert type(again.getEvaluator()) is ReconstructionErrorEvaluator
    assert type(again.getEstimator().getStages()[1]) is NystromKernelPCA


def test_evaluator_and_regressor_persist(tmp_path, spark, blobs):
    evaluator = ReconstructionErrorEvaluator(residualCol="r")
    evaluator.save(str(tmp_path / "ev"))
    assert ReconstructionErrorEvaluator.load(str(tmp_path / "ev")).getResidualCol() == "r"
    df, data = blobs
    from pyspark.sql import functions as F

    labelled = df.withColumn("label", F.rand(seed=1))
    model = KernelPCARegressor(dimension=2, gamma=0.3, numLandmarks=20).fit(labelled)
    model.save(str(tmp_path / "reg"))
    loaded = KernelPCARegressionModel.load(str(tmp_path / "reg"))
    assert isinstance(loaded, KernelPCARegressionModel)
    assert loaded.getDimension() == 2 and loaded.logLikelihood == model.logLikelihood
    assert (loaded.getGamma(), loaded.getNumLandmarks()) == (model.getGamma(), model.getNumLandmarks()) == (0.3, 20)


class Identity(Transformer, DefaultParamsReadable, DefaultParamsWritable):
    """A pure-Python stage: a pipeline holding it is saved by PySpark's Python writer, stage by stage."""

    def _transform(self, dataset):
        return dataset


def test_pipeline_with_a_python_stage_round_trips(tmp_path, blobs):
    df, _ = blobs
    df = df.selectExpr("monotonically_increasing_id() AS id", "features").cache()
    pipe = Pipeline(stages=[Identity(), NystromKernelPCA(k=2, numLandmarks=20, seed=1, residualCol="residual")])
    model = pipe.fit(df)
    model.save(str(tmp_path / "mixed"))
    loaded = PipelineModel.load(str(tmp_path / "mixed"))
    assert isinstance(loaded.stages[0], Identity)
    assert type(loaded.stages[1]) is NystromKernelPCAModel
    assert rows_of(loaded.transform(df)) == rows_of(model.transform(df))
    pipe.save(str(tmp_path / "mixed-pipe"))
    assert isinstance(Pipeline.load(str(tmp_path / "mixed-pipe")).getStages()[1], NystromKernelPCA)
