"""Runs every ```python block of python/README.md, in order, in one namespace (a notebook's, with DataFrames
``train``, ``test`` and ``more_rows`` of a ``features`` vector column, as the text supposes), and checks what
the text says they give. A block that no test runs fails the first test."""

import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np

from spark_kpca.ml import NystromKernelPCAModel

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> List[Tuple[int, str]]:
    """(line of the first code line, code) of every ```python block."""
    text = README.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start(1)) + 1, m.group(1))
        for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    ]


def test_the_blocks_are_the_session_and_the_use_blocks() -> None:
    blocks = python_blocks()
    assert len(blocks) == 2, [line for line, _ in blocks]
    assert "jar_path()" in blocks[0][1] and "NystromKernelPCA(" in blocks[1][1]


def test_the_blocks_run_and_give_what_the_text_says(spark: Any) -> None:
    from pyspark.ml.linalg import Vectors

    rng = np.random.default_rng(5)
    x = rng.normal(size=(900, 4)) + np.repeat(rng.normal(scale=3.0, size=(3, 4)), 300, axis=0)
    frame = spark.createDataFrame([(i, Vectors.dense(r.tolist())) for i, r in enumerate(x)], ["id", "features"])
    ns: Dict[str, Any] = {
        "__name__": "__main__",
        "train": frame.where("id < 600"),
        "test": frame.where("id >= 600 and id < 700"),
        "more_rows": frame.where("id >= 700"),
    }
    for line, code in python_blocks():
        exec(compile("\n" * (line - 1) + code, str(README), "exec"), ns)
    assert ns["spark"] is spark  # getOrCreate gave back the session that has the jar
    model = ns["model"]
    assert isinstance(model, NystromKernelPCAModel)  # the updated model
    assert model.numRows == 600 + 200 and model.numComponents == 10 and model.numSupportPoints == 500
    scores = ns["scores"]
    assert {"kpca", "residual"} <= set(scores.columns)
    rows = scores.orderBy("id").collect()
    assert len(rows) == 100 and all(len(r.kpca) == 10 and r.residual >= 0 for r in rows)
    ratio = model.explainedVarianceRatio.toArray()
    assert len(ratio) == 10 and 0 < ratio.sum() <= 1 + 1e-12 and np.all(np.diff(ratio) <= 1e-15)
    # gamma unset: the median heuristic's 1/(2 median ||x - y||^2) over the landmarks, a positive number
    assert model.getGamma() > 0
