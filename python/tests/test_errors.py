"""Bad parameters and bad input reach Python as one exception carrying the Java one-line message."""

import traceback

import pytest
from pyspark.ml.linalg import Vectors

from spark_kpca.errors import IllegalArgumentException, SparkKpcaError
from spark_kpca.ml import (
    KernelPCARegressor,
    NystromKernelPCA,
    NystromKernelPCAModel,
    ReconstructionErrorEvaluator,
    RelevantDimensionEstimator,
    StreamingKernelPCA,
)


def one_line(exc: BaseException) -> None:
    text = str(exc)
    assert "\n" not in text
    assert "py4j" not in text.lower() and "\tat " not in text
    # the printed traceback carries no Java stack trace and no chained Py4J error
    printed = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    assert "Py4JJavaError" not in printed and "\tat " not in printed


def test_invalid_value_fails_when_set_with_the_java_message(spark):
    with pytest.raises(IllegalArgumentException) as info:
        NystromKernelPCA(k=0)
    assert str(info.value) == "IllegalArgumentException: k must be > 0; got 0"
    one_line(info.value)
    with pytest.raises(IllegalArgumentException, match="kernel must be one of rbf, gaussian, .*; got gausian"):
        NystromKernelPCA().setKernel("gausian")
    with pytest.raises(
        IllegalArgumentException, match=r"gammaGrid must be a non-empty list of finite values > 0; got \[1.0, -1.0\]"
    ):
        RelevantDimensionEstimator().setParams(gammaGrid=[1.0, -1.0])
    assert isinstance(info.value, ValueError)


def test_k_exceeding_the_landmarks_is_checked_in_python_before_the_jvm(blobs, monkeypatch):
    df, _ = blobs
    est = NystromKernelPCA(k=60, numLandmarks=50)
    called = []
    monkeypatch.setattr(type(est).__mro__[0], "_fit_java", lambda self, d: called.append(d))
    with pytest.raises(IllegalArgumentException) as info:
        est.fit(df)
    assert str(info.value) == (
        "IllegalArgumentException: k = 60 exceeds the number of landmarks m = 50 (numLandmarks); k must be <= m"
    )
    assert not called
    one_line(info.value)


def test_python_precheck_message_equals_the_java_one(spark, jvm, blobs):
    df, _ = blobs
    java = jvm.io.github.sparkkpca.ml.NystromKernelPCA().setK(60).setNumLandmarks(50)
    with pytest.raises(Exception) as java_info:
        java.fit(df._jdf)
    from spark_kpca.errors import from_java, _captured_origin

    origin = _captured_origin(java_info.value)
    with pytest.raises(IllegalArgumentException) as py_info:
        NystromKernelPCA(k=60, numLandmarks=50).fit(df)
    assert str(py_info.value) == str(from_java(origin))
    missing = spark.createDataFrame([(1.0,)], ["x"])
    with pytest.raises(Exception) as java_info:
        jvm.io.github.sparkkpca.ml.NystromKernelPCA().setK(1).fit(missing._jdf)
    with pytest.raises(IllegalArgumentException) as py_info:
        NystromKernelPCA(k=1).fit(missing)
    assert str(py_info.value) == str(from_java(_captured_origin(java_info.value)))


def test_bad_input_found_by_the_jvm(spark):
    df = spark.createDataFrame([(Vectors.dense([1.0, 2.0]),)] * 10, ["features"])
    with pytest.raises(IllegalArgumentException) as info:
        NystromKernelPCA(k=2, numLandmarks=20).fit(df)
    assert str(info.value) == (
        "IllegalArgumentException: numLandmarks m = 20 exceeds the number of rows n = 10; "
        "use m <= n (m = n gives exact kernel PCA)"
    )
    assert info.value.java_class == "java.lang.IllegalArgumentException"
    one_line(info.value)
    nan = spark.createDataFrame([(Vectors.dense([1.0, float("nan")]),)] * 10, ["features"])
    with pytest.raises(SparkKpcaError) as info:
        NystromKernelPCA(k=1, numLandmarks=5).fit(nan)
    assert "NaN" in str(info.value) or "finite" in str(info.value)
    one_line(info.value)


def test_wrong_column_type_and_missing_label(spark):
    df = spark.createDataFrame([(1.0, 2.0)], ["features", "y"])
    with pytest.raises(IllegalArgumentException, match="must be of type Vector"):
        NystromKernelPCA(k=1).fit(df)
    vec = spark.createDataFrame([(Vectors.dense([1.0]),)], ["features"])
    with pytest.raises(IllegalArgumentException, match="Label column 'label' does not exist"):
        KernelPCARegressor(dimension=1).fit(vec)
    with pytest.raises(IllegalArgumentException, match="residualCol 'residual' is not a column"):
        ReconstructionErrorEvaluator().evaluate(vec)


def test_array_and_text_columns_name_their_conversion(spark, jvm):
    """An array column names array_to_vector, a string column a tokenizer and HashingTF/CountVectorizer: the
    same line from Python's precheck as from the Java stage."""
    df = spark.createDataFrame([([1.0, 2.0], "some words")], ["a", "s"])
    for column, expected in (("a", "pyspark.ml.functions.array_to_vector"), ("s", "HashingTF or CountVectorizer")):
        with pytest.raises(IllegalArgumentException, match=expected) as python_error:
            NystromKernelPCA(k=1, inputCol=column).fit(df)
        java_error = None
        try:
            jvm.io.github.sparkkpca.ml.NystromKernelPCA().setK(1).setInputCol(column).fit(df._jdf)
        except Exception as e:  # py4j wraps the Java exception
            java_error = str(e)
        assert java_error is not None and java_error.splitlines()[0] in str(python_error.value)


def test_missing_model_and_streaming_settings(spark, tmp_path):
    with pytest.raises(SparkKpcaError, match="(?i)path does not exist") as info:
        NystromKernelPCAModel.load(str(tmp_path / "nothing"))
    one_line(info.value)
    with pytest.raises(IllegalArgumentException, match="keepVersions must be >= 2, got 1"):
        StreamingKernelPCA(keepVersions=1)
    with pytest.raises(IllegalArgumentException, match="algorithm must be exact or oja"):
        StreamingKernelPCA(algorithm="fast")


def _rewrite_manifest(root) -> None:
    """Writes _manifest.json again over the stage's files, as an editor of a saved model could."""
    import hashlib
    import json

    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.name
        if name == "_manifest.json" or name == "_SUCCESS" or name.endswith(".crc"):
            continue
        data = path.read_bytes()
        files.append(
            {"path": path.relative_to(root).as_posix(), "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        )
    (root / "_manifest.json").write_text(json.dumps({"format": "spark-kpca-manifest-1", "files": files}))


def test_an_implausible_or_incomplete_saved_model_is_one_exception(tmp_path, blobs):
    import json

    df, _ = blobs
    model = NystromKernelPCA(k=2, numLandmarks=20, seed=1).fit(df)
    path = tmp_path / "model"
    model.save(str(path))
    # Repeated feature names, the manifest recomputed: the plausibility checks refuse the edit.
    metadata = next((path / "metadata").glob("part-*"))
    root = json.loads(metadata.read_text())
    root["featureNames"] = ["x", "y", "x"]
    metadata.write_text(json.dumps(root) + "\n")
    for crc in (path / "metadata").glob(".*.crc"):
        crc.unlink()
    _rewrite_manifest(path)
    with pytest.raises(IllegalArgumentException) as info:
        NystromKernelPCAModel.load(str(path))
    assert info.value.message == (
        f"Cannot load NystromKernelPCAModel from '{path}': its metadata's featureNames[2] = 'x' repeats"
        " featureNames[0]: a model records distinct names, one per feature"
    )
    one_line(info.value)
    # The manifest removed: the metadata records that the model had one.
    (path / "_manifest.json").unlink()
    with pytest.raises(IllegalArgumentException) as info:
        NystromKernelPCAModel.load(str(path))
    assert info.value.message == (
        f"Cannot load NystromKernelPCAModel from '{path}': _manifest.json is missing, but its metadata records"
        " that the stage was saved with one (spark-kpca-manifest-1): a file was removed or the copy is"
        " incomplete; copy the whole directory again or save the model again"
    )
    one_line(info.value)
