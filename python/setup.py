"""What pyproject.toml cannot say to setuptools: the start-up hook beside the package, the jars of a source
checkout, and a build directory outside the source tree.

- ``spark_kpca_aliases.pth`` goes to the top of the wheel (site-packages once installed), so that every
  interpreter of the environment registers the library's Java package names (``src/_spark_kpca_aliases.py``);
  PySpark needs them to load a saved model holding the library's stages.
- Built from a source checkout (``pip install ./python``) with no jars in ``src/spark_kpca/jars``, the wheel
  carries the library jars Maven built in the checkout (``spark-kpca-core/target/``), so that
  ``spark_kpca.jar_path()`` finds them once installed elsewhere.
- setuptools' ``build/`` and ``*.egg-info`` go to a temporary directory, not into the source tree.
"""

import atexit
import re
import shutil
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PTH = "spark_kpca_aliases.pth"


def _maven_version() -> str:
    text = (HERE / "src" / "spark_kpca" / "_version.py").read_text(encoding="utf-8")
    return re.search(r'^MAVEN_VERSION = "([^"]+)"', text, re.M).group(1)


def _checkout_jars() -> list:
    """The library jars of the checkout this directory belongs to, when the package ships none itself."""
    if list((HERE / "src" / "spark_kpca" / "jars").glob("*.jar")):
        return []
    target = HERE.parent / "spark-kpca-core" / "target"
    version = _maven_version()
    return [p for p in (target / f"spark-kpca-core_{s}-{version}.jar" for s in ("2.12", "2.13")) if p.is_file()]


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        self.copy_file(str(HERE / "src" / PTH), str(Path(self.build_lib) / PTH))
        jars = Path(self.build_lib) / "spark_kpca" / "jars"
        for jar in _checkout_jars():
            jars.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(jar), str(jars / jar.name))


_scratch = tempfile.mkdtemp(prefix="spark-kpca-build-")
atexit.register(shutil.rmtree, _scratch, True)

setup(
    cmdclass={"build_py": BuildPy},
    options={"build": {"build_base": _scratch}, "egg_info": {"egg_base": _scratch}},
)
