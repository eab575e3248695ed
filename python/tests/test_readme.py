"""Runs every ```python block of the README and of the documentation site's getting-started page and guides, as
JavaQuickStartTest and ReadmeCommandsTest run their Java and command-line blocks: the first fit from Python in order
in one namespace (a notebook's, with a DataFrame ``df`` of numeric columns x1, x2, x3 as the text says) followed by
the MLflow block, the numpy and scipy scoring of an exported bundle on a bundle this test exports, and the γ search
on TF-IDF features on generated documents. A block that no test runs (and that is not a copy of one that runs)
fails the first test."""

import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest
from pyspark.ml import PipelineModel

import notebook_context
from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel

ROOT = notebook_context.ROOT
README = ROOT / "README.md"
GETTING_STARTED = ROOT / "docs" / "getting-started.md"
PERSISTENCE = ROOT / "docs" / "guides" / "persistence-and-mlflow.md"
KERNELS = ROOT / "docs" / "guides" / "kernels-and-gamma.md"
# The pages whose Python blocks a user copies: each block must be run here (or be a copy of one that is).
PAGES = [README, ROOT / "docs" / "index.md", GETTING_STARTED, *sorted((ROOT / "docs" / "guides").glob("*.md"))]

FIRST_FIT = (GETTING_STARTED, "## First fit from Python")
MLFLOW = (PERSISTENCE, "## MLflow")
NUMPY = (PERSISTENCE, "## Score without Spark: load a model in numpy")
ONNX = (PERSISTENCE, "## Score without Spark: ONNX")  # run by test_onnx.py
TEXT_GAMMA = (KERNELS, "## Tune γ on text features {#tune-gamma-on-text-features}")


def section(text: str, heading: str) -> str:
    """The text of the section headed by the line ``heading``, up to the next heading of its level or higher."""
    start = text.index(heading + "\n")
    level = heading.index(" ")
    in_fence = False
    at = start + len(heading) + 1
    for line in text[at:].split("\n"):
        if line.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and re.match(r"^#{1,%d} " % level, line):
            break
        at += len(line) + 1
    return text[start:at]


def python_blocks(page: Path, heading: str = "") -> List[Tuple[int, str]]:
    """(line of the first code line, code) of every ```python block of a page, or of its section ``heading``."""
    text = page.read_text(encoding="utf-8")
    offset = text.index(section(text, heading)) if heading else 0
    body = section(text, heading) if heading else text
    return [
        (text.count("\n", 0, offset + m.start(1)) + 1, m.group(1))
        for m in re.finditer(r"^```python\n(.*?)^```", body, flags=re.S | re.M)
    ]


def run_block(page: Path, line: int, code: str, ns: Dict[str, Any]) -> None:
    exec(compile("\n" * (line - 1) + code, str(page), "exec"), ns)


def test_every_python_block_is_run_by_a_test() -> None:
    sections = (FIRST_FIT, MLFLOW, NUMPY, TEXT_GAMMA, ONNX)
    run = {code for page, heading in sections for _, code in python_blocks(page, heading)}
    assert [len(python_blocks(*s)) for s in sections] == [2, 1, 2, 1, 1]
    for page in PAGES:
        for line, code in python_blocks(page):
            assert code in run, f"{page.relative_to(ROOT)}:{line}: a ```python block that no test runs"
    # The README's example is the getting-started page's, word for word.
    assert [code for _, code in python_blocks(README)] == [code for _, code in python_blocks(*FIRST_FIT)]


def test_use_from_python_blocks_run(spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    df = spark.range(0, 3000, 1, 3).selectExpr(
        "sin(id * 0.37) + 0.1 * randn(1) as x1",
        "cos(id * 0.37) + 0.1 * randn(2) as x2",
        "(id % 3) + 0.1 * randn(3) as x3",
    )
    ns = notebook_context.namespace(spark, tmp_path, "readme")
    ns["df"] = df
    for page, heading in (FIRST_FIT, MLFLOW):
        for line, code in python_blocks(page, heading):
            run_block(page, line, code, ns)
    # The session block gave back the running session (the one started with spark.jars = jar_path()).
    assert ns["spark"] is spark
    kpca_model = ns["kpca_model"]
    assert isinstance(kpca_model, NystromKernelPCAModel)
    assert (kpca_model.numComponents, kpca_model.numSupportPoints) == (5, 300)
    assert 0.5 < sum(kpca_model.explainedVarianceRatio) <= 1.0
    again = ns["again"]
    assert isinstance(again, PipelineModel) and isinstance(again.stages[-1], NystromKernelPCAModel)
    assert Path("/tmp/kpca-pipeline/metadata").is_dir()
    expected = [(r.kpca, r.novelty) for r in ns["model"].transform(df).select("kpca", "novelty").collect()]
    assert [(r.kpca, r.novelty) for r in again.transform(df).select("kpca", "novelty").collect()] == expected
    # MLflow: the local SQLite store in the working directory, and the model back with our classes.
    assert (tmp_path / "mlflow.db").is_file()
    loaded = ns["loaded"]
    assert isinstance(loaded.stages[-1], NystromKernelPCAModel)
    assert [(r.kpca, r.novelty) for r in loaded.transform(df).select("kpca", "novelty").collect()] == expected
    # Our pyfunc flavour: numpy's scores and spark_udf's (a struct of the input columns) are transform's.
    sample = ns["sample"].toPandas()
    rows = ns["spark"].createDataFrame(sample)
    np.testing.assert_allclose(
        ns["scores"], [r.kpca.toArray() for r in ns["model"].transform(rows).collect()], rtol=0, atol=1e-12
    )
    both = ns["model"].transform(ns["scored"].limit(20)).select("kpca", "scores").collect()
    np.testing.assert_allclose([r.scores for r in both], [r.kpca.toArray() for r in both], rtol=0, atol=1e-12)


def test_numpy_scoring_of_an_exported_bundle(spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guide's numpy block scores data.csv from bundle/ exactly as the model's transform does."""
    from pyspark.ml.linalg import Vectors

    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(3)
    data = rng.normal(size=(200, 4))
    labels = rng.integers(0, 2, size=200)
    with open("data.csv", "w") as out:
        out.write("x1,x2,x3,x4,label\n")
        for row, label in zip(data, labels):
            out.write(",".join(repr(float(v)) for v in row) + f",{label}\n")
    df = spark.createDataFrame([(i, Vectors.dense(r.tolist())) for i, r in enumerate(data)], ["id", "features"])
    model = NystromKernelPCA(k=3, numLandmarks=40, kernel="rbf", seed=5).fit(df)
    model.export(str(tmp_path / "bundle"))  # the JVM's working directory is not the test's
    ns: Dict[str, Any] = {"__name__": "__main__"}
    line, code = python_blocks(*NUMPY)[0]
    run_block(NUMPY[0], line, code, ns)
    expected = np.array([r.kpca.toArray() for r in model.transform(df).orderBy("id").select("kpca").collect()])
    assert ns["scores"].shape == (200, 3)
    np.testing.assert_allclose(ns["scores"], expected, rtol=1e-9, atol=1e-9)


def test_scipy_scoring_of_a_sparse_exported_bundle(spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guide's scipy block scores data.libsvm, a file Spark's libsvm writer wrote (one-based indices, as the
    command line reads them), from a bundle with sparse (CSR) landmarks exactly as the model's transform does."""
    from pyspark.ml.linalg import Vectors

    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(5)
    n, d, nnz = 300, 5000, 12
    rows = []
    for i in range(n):
        idx = np.sort(rng.choice(d, size=nnz, replace=False))
        val = rng.exponential(size=nnz)
        rows.append((i, 0.0, Vectors.sparse(d, idx.tolist(), val.tolist())))
    df = spark.createDataFrame(rows, ["id", "label", "features"]).coalesce(1)
    df.select("label", "features").write.format("libsvm").save(str(tmp_path / "written"))
    (part,) = (tmp_path / "written").glob("part-*")
    Path("data.libsvm").write_text(part.read_text())
    assert min(int(p.split(":")[0]) for line in part.read_text().splitlines() for p in line.split()[1:]) >= 1
    model = NystromKernelPCA(k=3, numLandmarks=40, kernel="cosine", seed=5).fit(df)
    assert model.getKernelBlockPath().startswith("sparse: ")
    model.export(str(tmp_path / "bundle"))
    assert not [p.name for p in (tmp_path / "bundle").iterdir() if p.name.endswith(".crc")], "no Hadoop checksums"
    ns: Dict[str, Any] = {"__name__": "__main__"}
    line, code = python_blocks(*NUMPY)[1]
    run_block(NUMPY[0], line, code, ns)
    expected = np.array([r.kpca.toArray() for r in model.transform(df).orderBy("id").select("kpca").collect()])
    assert ns["scores"].shape == (n, 3)
    np.testing.assert_allclose(ns["scores"], expected, rtol=1e-9, atol=1e-9)


def test_gamma_search_on_text_features(spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guide's γ search on TF-IDF vectors: documents drawn from three topics' vocabularies, three γ values,
    two folds; the best model is the one with the smallest held-out error and its fits ran on the sparse path."""
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(11)
    topics = [[f"t{t}w{i}" for i in range(40)] for t in range(3)]
    common = [f"c{i}" for i in range(200)]
    texts = [" ".join(rng.choice(topics[i % 3], 12).tolist() + rng.choice(common, 6).tolist()) for i in range(240)]
    ns: Dict[str, Any] = {"__name__": "__main__", "docs": spark.createDataFrame([(t,) for t in texts], ["text"])}
    line, code = python_blocks(*TEXT_GAMMA)[0]
    run_block(TEXT_GAMMA[0], line, code, ns)
    metrics = ns["cv_model"].avgMetrics
    assert len(metrics) == 3 and all(np.isfinite(metrics)) and len(set(metrics)) == 3, metrics
    best = ns["best"]
    assert isinstance(best, NystromKernelPCAModel)
    assert best.getGamma() == ns["gammas"][int(np.argmin(metrics))]
    assert ns["gammas"][1] == ns["gamma0"] and 0.1 < ns["gamma0"] < 1.0, ns["gamma0"]
    assert min(metrics) < 1.0 < max(metrics) < 1.2, metrics  # normalised rows: ‖x‖² = 1; 10x γ0 worse than zero
    assert best.getKernelDegenerate() == "none", best.getKernelDegenerate()
    assert best.getKernelBlockPath().startswith("sparse: "), best.getKernelBlockPath()
