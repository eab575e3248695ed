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


def test_versions_every_n_batches_keep_rows_pending_until_flush_and_restarts_are_checked(spark, tmp_path):
    rng = np.random.default_rng(5)
    source = str(tmp_path / "in")
    for _ in range(3):
        rows = [(Vectors.dense(r.tolist()),) for r in rng.normal(size=(40, 3))]
        spark.createDataFrame(rows, ["features"]).coalesce(1).write.mode("append").parquet(source)
    batch = spark.read.parquet(source)
    stream = spark.readStream.schema(batch.schema).option("maxFilesPerTrigger", 1).parquet(source)
    models = str(tmp_path / "models")
    checkpoint = str(tmp_path / "checkpoint")
    kpca = NystromKernelPCA(k=2, numLandmarks=15, gamma=0.3, seed=4)
    sink = StreamingKernelPCA(estimator=kpca, modelDir=models, versionEveryBatches=5)
    sink.start(stream, checkpoint, availableNow=True).awaitTermination()
    # Version 0 only; the rows of batches 1 and 2 are pending until flush writes version 2.
    assert StreamingKernelPCA.latestVersion(models).endswith("version-000000000000")
    assert sorted(p.name for p in (tmp_path / "models").iterdir() if p.name.startswith("pending-")) == [
        "pending-000000000001",
        "pending-000000000002",
    ]
    assert sink.flush().endswith("version-000000000002")
    model = StreamingKernelPCA.loadLatest(models)
    assert model.numRows == 120
    refit = NystromKernelPCA(k=2, gamma=0.3).setLandmarksFrom(model).fit(batch)
    np.testing.assert_allclose(model.eigenvalues.toArray()[:2], refit.eigenvalues.toArray()[:2], rtol=1e-9)

    other = StreamingKernelPCA(estimator=NystromKernelPCA(k=3, numLandmarks=15, gamma=0.3, seed=4), modelDir=models)
    with pytest.raises(ValueError, match="was streamed with k = 2, not 3"):
        other.start(stream, checkpoint, availableNow=True)
    with pytest.raises(ValueError, match="belongs to the checkpoint"):
        sink.start(stream, str(tmp_path / "another"), availableNow=True)
    with pytest.raises(ValueError, match="give them separate paths"):
        StreamingKernelPCA(estimator=kpca, modelDir=str(tmp_path / "m2")).start(
            stream, str(tmp_path / "m2" / "ckpt"), availableNow=True
        )
    with pytest.raises(ValueError, match="versionEveryBatches must be >= 1"):
        sink.setVersionEveryBatches(0)
