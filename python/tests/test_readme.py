"""Runs every ```python block of the repository's README.md, as JavaQuickStartTest and ReadmeCommandsTest run its
Java and command-line parts: the blocks of "Use from Python" in order in one namespace (a notebook's, with a
DataFrame ``df`` of numeric columns x1, x2, x3 as the text says), and the numpy scoring of an exported bundle
in "Command line" on a bundle this test exports. A block that no test runs fails the first test."""

import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest
from pyspark.ml import PipelineModel

import notebook_context
from spark_kpca.ml import NystromKernelPCA, NystromKernelPCAModel

README = notebook_context.ROOT / "README.md"


def python_blocks(section: str = "") -> List[Tuple[int, str]]:
    """(line of the first code line, code) of every ```python block, or of those in the ``## section``."""
    text = README.read_text(encoding="utf-8")
    if section:
        start = text.index(section + "\n")
        end = text.find("\n## ", start + len(section))
        text_range = (start, end if end >= 0 else len(text))
    else:
        text_range = (0, len(text))
    blocks = []
    for match in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M):
        if text_range[0] <= match.start() < text_range[1]:
            blocks.append((text.count("\n", 0, match.start(1)) + 1, match.group(1)))
    return blocks


PYTHON_SECTION = "## Use from Python (PySpark, Databricks)"
COMMAND_LINE = "## Command line"


def run_block(line: int, code: str, ns: Dict[str, Any]) -> None:
    exec(compile("\n" * (line - 1) + code, str(README), "exec"), ns)


def test_every_python_block_is_run_by_a_test() -> None:
    everything = python_blocks()
    covered = python_blocks(PYTHON_SECTION) + python_blocks(COMMAND_LINE)
    assert len(python_blocks(PYTHON_SECTION)) == 3
    assert len(python_blocks(COMMAND_LINE)) == 2
    assert sorted(everything) == sorted(covered), "a ```python block of README.md that no test runs"


def test_use_from_python_blocks_run(spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    df = spark.range(0, 3000, 1, 3).selectExpr(
        "sin(id * 0.37) + 0.1 * randn(1) as x1",
        "cos(id * 0.37) + 0.1 * randn(2) as x2",
        "(id % 3) + 0.1 * randn(3) as x3",
    )
    ns = notebook_context.namespace(spark, tmp_path, "readme")
    ns["df"] = df
    for line, code in python_blocks(PYTHON_SECTION):
        run_block(line, code, ns)
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


def test_numpy_scoring_of_an_exported_bundle(spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's numpy block scores data.csv from bundle/ exactly as the model's transform does."""
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
    line, code = python_blocks(COMMAND_LINE)[0]
    run_block(line, code, ns)
    expected = np.array([r.kpca.toArray() for r in model.transform(df).orderBy("id").select("kpca").collect()])
    assert ns["scores"].shape == (200, 3)
    np.testing.assert_allclose(ns["scores"], expected, rtol=1e-9, atol=1e-9)


def test_scipy_scoring_of_a_sparse_exported_bundle(spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's scipy block scores data.libsvm, a file Spark's libsvm writer wrote (one-based indices, as the
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
    line, code = python_blocks(COMMAND_LINE)[1]
    run_block(line, code, ns)
    expected = np.array([r.kpca.toArray() for r in model.transform(df).orderBy("id").select("kpca").collect()])
    assert ns["scores"].shape == (n, 3)
    np.testing.assert_allclose(ns["scores"], expected, rtol=1e-9, atol=1e-9)
