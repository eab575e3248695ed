"""The streaming sink from Python: a directory stream with availableNow, versions loaded as our model class."""

import numpy as np
import pytest
from pyspark.ml.linalg import Vectors

from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel, StreamingKernelPCA


def test_stream_of_two_files_equals_a_batch_fit_with_the_same_landmarks(spark, tmp_path):
    rng = np.random.default_rng(21)
    source = str(tmp_path / "in")
    for _ in range(2):
        rows = [(Vectors.dense(r.tolist()),) for r in rng.normal(size=(60, 3))]
        spark.createDataFrame(rows, ["features"]).coalesce(1).write.mode("append").parquet(source)
    batch = spark.read.parquet(source)
    stream = spark.readStream.schema(batch.schema).option("maxFilesPerTrigger", 1).parquet(source)
    kpca = NystromKernelPCA(k=2, numLandmarks=20, gamma=0.3, seed=4)
    sink = StreamingKernelPCA(estimator=kpca, modelDir=str(tmp_path / "models"), keepVersions=3)
    query = sink.start(stream, str(tmp_path / "checkpoint"), availableNow=True)
    query.awaitTermination()
    assert StreamingKernelPCA.latestVersion(str(tmp_path / "models")).endswith("version-000000000001")
    model = StreamingKernelPCA.loadLatest(str(tmp_path / "models"))
    assert isinstance(model, NystromKernelPCAModel)
    assert model.numRows == 120
    refit = NystromKernelPCA(k=2, gamma=0.3).setLandmarksFrom(model).fit(batch)
    np.testing.assert_allclose(model.eigenvalues.toArray()[:2], refit.eigenvalues.toArray()[:2], rtol=1e-9)


def test_start_needs_a_streaming_frame_and_one_trigger(spark, tmp_path, blobs):
    df, _ = blobs
    sink = StreamingKernelPCA(estimator=NystromKernelPCA(k=1), modelDir=str(tmp_path / "m"))
    with pytest.raises(ValueError, match="needs a streaming DataFrame"):
        sink.start(df, str(tmp_path / "c"))
    with pytest.raises(ValueError, match="at most one trigger"):
        sink.start(df, str(tmp_path / "c"), availableNow=True, once=True)
