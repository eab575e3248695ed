"""What the stages take as a dataset (pandas is refused with what to do; pandas-on-Spark is taken as its Spark
DataFrame), the types a type checker sees (fit returns the model's class, setters their stage's class), and
the pre-image Params of the estimators, which are copied to the model."""

import typing

import numpy as np
import pytest

import spark_kpca.ml as ml


@pytest.fixture(scope="module")
def frames(spark):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(120, 3))
    pdf = __import__("pandas").DataFrame(x, columns=["a", "b", "c"])
    pdf["id"] = range(len(pdf))
    return pdf, x


def scores(df):
    return np.array([r.kpca.toArray() for r in df.orderBy("id").select("kpca").collect()])


def test_a_pandas_dataframe_is_refused_with_what_to_do(spark, frames):
    pdf, _ = frames
    for call, where in (
        (lambda: ml.NystromKernelPCA(k=2, numLandmarks=10).fit(pdf), "NystromKernelPCA.fit"),
        (lambda: ml.ReconstructionErrorEvaluator().evaluate(pdf), "ReconstructionErrorEvaluator.evaluate"),
    ):
        with pytest.raises(TypeError) as refused:
            call()
        message = str(refused.value)
        assert message.startswith(f"{where}: dataset is a pandas DataFrame (pandas.core.frame.DataFrame)")
        assert "spark.createDataFrame(pandas_df)" in message and "VectorAssembler" in message
    with pytest.raises(TypeError, match=r"should be a Spark DataFrame \(pyspark.sql.DataFrame\), got builtins.list"):
        ml.KernelPCA(k=2).fit([[1.0, 2.0]])


def test_a_pandas_on_spark_dataframe_is_fitted_and_scored_as_its_spark_dataframe(spark, frames):
    import pyspark.pandas as ps
    from pyspark.ml.feature import VectorAssembler

    pdf, x = frames
    assembled = VectorAssembler(inputCols=["a", "b", "c"], outputCol="features").transform(
        spark.createDataFrame(pdf)
    )
    psdf = assembled.pandas_api()
    estimator = ml.KernelPCA(k=2, kernel="rbf", gamma=0.3)
    from_pandas_on_spark = estimator.fit(psdf)
    direct = estimator.fit(assembled)
    # the same rows (pandas-on-Spark may order them differently: equal to rounding)
    np.testing.assert_allclose(
        from_pandas_on_spark.eigenvalues.toArray(), direct.eigenvalues.toArray(), rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(
        scores(from_pandas_on_spark.transform(psdf)), scores(direct.transform(assembled)), rtol=1e-9, atol=1e-12
    )
    # and the numbers are kernel PCA's: the eigenvalues of the centred kernel matrix / n (dense numpy)
    sq = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)
    kernel = np.exp(-0.3 * sq)
    n = len(x)
    centring = np.eye(n) - 1.0 / n
    expected = np.linalg.eigvalsh(centring @ kernel @ centring / n)[::-1][:2]
    np.testing.assert_allclose(direct.eigenvalues.toArray()[:2], expected, rtol=1e-9)


def _model_of(estimator: type) -> type:
    for base in estimator.__orig_bases__:
        if typing.get_origin(base) is ml._KpcaEstimator:
            (arg,) = typing.get_args(base)
            return typing._eval_type(arg, vars(ml), None)  # the ForwardRef, as a type checker reads it
    raise AssertionError(f"{estimator.__name__} is not a _KpcaEstimator[...]")


def test_fit_is_typed_with_the_model_and_setters_with_their_stage():
    pairs = {
        ml.NystromKernelPCA: ml.NystromKernelPCAModel,
        ml.RandomFeatureKernelPCA: ml.RandomFeatureKernelPCAModel,
        ml.KernelPCA: ml.KernelPCAModel,
    }
    for estimator, model in pairs.items():
        assert _model_of(estimator) is model
        assert ml._KpcaEstimator in estimator.__mro__
    for predictor in (ml.KernelPCARegressor, ml.RelevantDimensionEstimator):
        assert _model_of(ml._KpcaPredictor) is ml.KernelPCARegressionModel and issubclass(predictor, ml._KpcaPredictor)
    for stage, setter in ((ml.NystromKernelPCA, "setK"), (ml.NystromKernelPCAModel, "setResidualCol"),
                          (ml.KernelPCARegressor, "setParams")):
        hints = typing.get_type_hints(getattr(stage, setter))
        assert isinstance(hints["return"], typing.TypeVar) and hints["return"] is hints["self"]


def test_estimators_take_the_pre_image_params_and_not_the_models_outputs(spark, blobs):
    df, data = blobs
    output_only = {"statisticsRouteTaken", "statisticsRouteCheck", "landmarkConditionEstimate",
                   "landmarkResidualCurve", "kernelBlockPath"}
    estimator = ml.NystromKernelPCA(k=3, numLandmarks=200, kernel="rbf", gamma=0.2, seed=1,
                                    reconstructionCol="denoised", preimageMethod="ridge", preimageRidge=0.5)
    assert not output_only & {p.name for p in estimator.params}
    assert estimator.setPreimageMaxIter(7).getPreimageMaxIter() == 7
    model = estimator.fit(df)
    assert output_only <= {p.name for p in model.params}
    assert isinstance(model.getStatisticsRouteTaken(), str) and model.getStatisticsRouteTaken()
    assert model.getKernelBlockPath().startswith("dense: ")
    assert (model.getReconstructionCol(), model.getPreimageMethod(), model.getPreimageRidge()) == ("denoised", "ridge", 0.5)
    denoised = np.array([r.denoised.toArray() for r in model.transform(df).select("denoised").collect()])
    assert denoised.shape == data.shape and np.all(np.isfinite(denoised))
    # the same pre-images as the model given the Params after the fit
    plain = ml.NystromKernelPCA(k=3, numLandmarks=200, kernel="rbf", gamma=0.2, seed=1).fit(df)
    plain.setReconstructionCol("denoised").setPreimageMethod("ridge").setPreimageRidge(0.5)
    again = np.array([r.denoised.toArray() for r in plain.transform(df).select("denoised").collect()])
    np.testing.assert_allclose(denoised, again, rtol=1e-9, atol=1e-12)  # two fits: equal to rounding
