"""Scoring a stream from Python: a saved model's transform of a file stream, written by a checkpointed Parquet
sink in two runs, equals the batch transform of the same rows, each row once."""

import numpy as np

from pyspark.ml.linalg import Vectors

from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel


def _write_file(spark, rng, source, first_id, rows=40):
    data = [(first_id + i, Vectors.dense(r.tolist())) for i, r in enumerate(rng.normal(size=(rows, 3)))]
    spark.createDataFrame(data, ["id", "features"]).coalesce(1).write.mode("append").parquet(source)


def _scores(df):
    out = {}
    for row in df.select("id", "scores").collect():
        assert row["id"] not in out, f"row {row['id']} written twice"
        out[row["id"]] = row["scores"].toArray()
    return out


def test_a_saved_model_scores_a_file_stream_across_a_restart_as_the_batch_transform(spark, tmp_path, blobs):
    df, _ = blobs
    saved = str(tmp_path / "model")
    NystromKernelPCA(k=2, numLandmarks=30, gamma=0.3, seed=5).fit(df).save(saved)
    model = NystromKernelPCAModel.load(saved).setOutputCol("scores")

    rng = np.random.default_rng(8)
    source = str(tmp_path / "in")
    output = str(tmp_path / "scored")
    checkpoint = str(tmp_path / "checkpoint")
    _write_file(spark, rng, source, 0)
    schema = spark.read.parquet(source).schema
    for run in range(2):
        if run == 1:
            _write_file(spark, rng, source, 40)
        stream = spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).parquet(source)
        scored = model.transform(stream)
        assert scored.isStreaming
        query = (
            scored.writeStream.format("parquet")
            .option("checkpointLocation", checkpoint)
            .trigger(availableNow=True)
            .start(output)
        )
        query.awaitTermination()
        assert query.exception() is None
        assert spark.read.parquet(output).count() == 40 * (run + 1)

    expected = _scores(model.transform(spark.read.parquet(source)))
    streamed = _scores(spark.read.parquet(output))
    assert sorted(streamed) == list(range(80))
    assert sorted(expected) == sorted(streamed)
    for key, want in expected.items():
        np.testing.assert_allclose(streamed[key], want, rtol=1e-10, atol=1e-12)
