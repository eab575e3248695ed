"""Runs every Python notebook in notebooks/ cell by cell on local PySpark, as a notebook attached to a cluster
runs: one namespace per notebook with ``spark``, ``display``, ``displayHTML`` and ``dbutils.widgets``
predefined (see notebook_context). A cell that raises fails the test, naming the notebook, the cell and its
line; the notebooks check their own results with ``assert``, and each test below also checks a value the
notebook computed and the charts it displayed.

The notebooks take their sizes from widgets; the tests set small ones (CI runs them on two cores), the
notebooks' defaults are the sizes a cluster runs.
"""

import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

import notebook_context

NOTEBOOKS = notebook_context.ROOT / "notebooks"
HEADER = "# Databricks notebook source"
SEPARATOR = "# COMMAND ----------"
MAGIC = "# MAGIC"


@dataclass
class Cell:
    number: int  # 1-based
    line: int  # the notebook line its text starts on (1-based)
    source: str

    @property
    def is_magic(self) -> bool:
        """A cell of ``# MAGIC`` lines only (markdown): not Python, not run."""
        lines = [l for l in self.source.splitlines() if l.strip()]
        return all(l.startswith(MAGIC) for l in lines)


def cells(path: Path) -> List[Cell]:
    """The cells of a notebook in Databricks' source format, in order."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if not lines or lines[0].strip() != HEADER:
        raise ValueError(f"{path.name} does not start with '{HEADER}'")
    found: List[Cell] = []
    current: List[str] = []
    start = 0
    for i in range(1, len(lines) + 1):
        if i == len(lines) or lines[i].strip() == SEPARATOR:
            if "".join(current).strip():
                found.append(Cell(len(found) + 1, start, "\n".join(current).rstrip() + "\n"))
            current, start = [], 0
        else:
            if start == 0 and lines[i].strip():
                start = i + 1
            if start:
                current.append(lines[i])
    return found


def run_notebook(path: Path, spark: Any, out_dir: Path, widgets: Dict[str, str]) -> Dict[str, Any]:
    """Runs every code cell of the notebook in one namespace and returns it; fails on the first error."""
    all_cells = cells(path)
    code = [c for c in all_cells if not c.is_magic]
    assert code, f"{path.name} has no code cells"
    for cell in all_cells:
        if cell.is_magic:
            magic = cell.source.lstrip()[len(MAGIC) :].split(None, 1)[0]
            # Only markdown is skipped: a %sh or %pip cell would be a step these tests do not run.
            assert magic == "%md", f"{path.name}, cell {cell.number}: a {magic} cell is not run by the tests"
    ns = notebook_context.namespace(spark, out_dir, path.stem, widgets)
    started = time.monotonic()
    try:
        for cell in code:
            print(f"\n=== {path.name}, cell {cell.number} (line {cell.line})")
            cell_started = time.monotonic()
            # Padded so that tracebacks give the notebook file's own line numbers.
            compiled = compile("\n" * (cell.line - 1) + cell.source, str(path), "exec")
            try:
                exec(compiled, ns)
            except BaseException as error:  # noqa: BLE001 - reported with the cell
                pytest.fail(
                    f"notebooks/{path.name}, cell {cell.number} (line {cell.line}): "
                    f"{type(error).__name__}: {error}\n{cell.source.strip()}\n--- traceback\n"
                    + "".join(traceback.format_exception(type(error), error, error.__traceback__)),
                    pytrace=False,
                )
            print(f"=== cell {cell.number}: {time.monotonic() - cell_started:.1f} s")
    finally:
        for query in spark.streams.active:
            query.stop()
        spark.catalog.clearCache()
    print(f"=== {path.name}: {len(code)} code cells in {time.monotonic() - started:.1f} s")
    unused = ns["dbutils"].widgets.unused_overrides()
    assert not unused, f"{path.name} defines no widget {unused} (the test's parameters do nothing)"
    return ns


def figures(ns: Dict[str, Any], at_least: int) -> List[Path]:
    """The figures the notebook displayed: at least ``at_least`` PNG files of a plausible size."""
    shown = ns["_displayed"].figures
    assert len(shown) >= at_least, f"{len(shown)} figures displayed, expected >= {at_least}"
    for png in shown:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{png} is not a PNG file"
        assert png.stat().st_size > 5000, f"{png} is nearly empty ({png.stat().st_size} bytes)"
    return shown


def check_quick_start(ns: Dict[str, Any]) -> None:
    cumulative = ns["cumulative"]
    assert 0.2 < cumulative[-1] < 1.0, f"{ns['k']} components explain {cumulative[-1]}"
    assert ns["after"] == ns["before"], "the reloaded model scores alike"
    # The held-out reconstruction error at ℓ = k is within 20 % of the training one.
    assert abs(ns["held_out_error"][-1] / ns["training_error"][-1] - 1) < 0.2
    figures(ns, 3)


def check_anomaly_detection(ns: Dict[str, Any]) -> None:
    assert ns["auc"] > 0.9, f"AUC {ns['auc']}"
    # The ROC curve the notebook draws has the area Spark's evaluator reports.
    assert abs(ns["roc_area"] - ns["auc"]) < 0.01, (ns["roc_area"], ns["auc"])
    assert ns["flagged"][1.0] > 0.3 and ns["flagged"][0.0] < 0.1, ns["flagged"]
    figures(ns, 2)


def check_denoising(ns: Dict[str, Any]) -> None:
    assert ns["fixed_point_error"] < 0.5 * ns["noisy_error"], (ns["fixed_point_error"], ns["noisy_error"])
    assert ns["ridge_error"] < 0.5 * ns["noisy_error"], (ns["ridge_error"], ns["noisy_error"])
    figures(ns, 1)


def check_streaming(ns: Dict[str, Any]) -> None:
    assert ns["batches"] == ns["files"], (ns["batches"], ns["files"])
    assert ns["eigenvalue_gap"] < 1e-8, ns["eigenvalue_gap"]
    assert ns["streamed"].numRows == ns["rows"]
    figures(ns, 2)


def check_relevant_dimension(ns: Dict[str, Any]) -> None:
    # sinc plus Gaussian noise of standard deviation 0.1: the estimated noise variance is near 0.01.
    assert 0.005 < ns["noise_variance"] < 0.02, ns["noise_variance"]
    assert ns["test_rmse"] < 0.15, ns["test_rmse"]
    figures(ns, 2)


#: Each notebook, the small sizes the tests run it with, and the check of its results.
CASES: Dict[str, Any] = {
    "01-quick-start.py": (
        {"train_rows": "1000", "test_rows": "400", "num_landmarks": "200"},
        check_quick_start,
    ),
    "02-anomaly-detection.py": (
        {"train_rows": "800", "test_rows": "800", "num_landmarks": "200"},
        check_anomaly_detection,
    ),
    "03-denoising.py": (
        {"train_rows": "1000", "noisy_images": "40", "num_landmarks": "250"},
        check_denoising,
    ),
    "04-streaming.py": ({"rows_per_file": "300", "files": "3"}, check_streaming),
    "05-relevant-dimension.py": ({"train_rows": "300"}, check_relevant_dimension),
}


def test_the_notebooks_are_there() -> None:
    present = sorted(p.name for p in NOTEBOOKS.glob("*.py"))
    assert present == sorted(CASES), present


def test_cells_are_split_as_databricks_does(tmp_path: Path) -> None:
    notebook = tmp_path / "n.py"
    notebook.write_text(
        f"{HEADER}\n# MAGIC %md\n# MAGIC # Title\n\n{SEPARATOR}\n\nx = 1\n\n{SEPARATOR}\n\ny = x + 1\n"
    )
    found = cells(notebook)
    assert [(c.number, c.line, c.is_magic) for c in found] == [(1, 2, True), (2, 7, False), (3, 11, False)]
    assert found[2].source == "y = x + 1\n"
    (tmp_path / "bad.py").write_text("x = 1\n")
    with pytest.raises(ValueError, match="does not start with"):
        cells(tmp_path / "bad.py")


def test_a_failing_cell_names_the_notebook_cell_and_line(spark: Any, tmp_path: Path) -> None:
    notebook = tmp_path / "broken.py"
    notebook.write_text(f"{HEADER}\nx = 1\n{SEPARATOR}\n\ny = x / 0\n")
    with pytest.raises(pytest.fail.Exception) as failure:
        run_notebook(notebook, spark, tmp_path, {})
    message = str(failure.value)
    assert "notebooks/broken.py, cell 2 (line 5): ZeroDivisionError" in message
    assert f'File "{notebook}", line 5' in message


@pytest.mark.parametrize("name", sorted(CASES))
def test_notebook_runs(name: str, spark: Any, tmp_path: Path) -> None:
    widgets, check = CASES[name]
    widgets = dict(widgets)
    source = (NOTEBOOKS / name).read_text(encoding="utf-8")
    if "mnist_dir" in source:
        widgets["mnist_dir"] = str(notebook_context.mnist_dir())
    if "work_dir" in source:
        widgets["work_dir"] = str(tmp_path / "work")
    ns = run_notebook(NOTEBOOKS / name, spark, tmp_path, widgets)
    check(ns)
