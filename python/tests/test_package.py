"""The package's metadata and jar lookup: version in step with Maven, jar matching PySpark's Scala version."""

import ast
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import spark_kpca
from spark_kpca import _jar
from spark_kpca._version import MAVEN_VERSION, __version__

ROOT = Path(__file__).resolve().parents[2]
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def maven_version() -> str:
    root = ET.parse(ROOT / "pom.xml").getroot()
    return root.find("m:version", POM_NS).text.strip()


def test_version_is_in_step_with_maven():
    assert MAVEN_VERSION == maven_version()
    expected = re.sub(r"-SNAPSHOT$", ".dev0", MAVEN_VERSION)
    assert __version__ == expected
    assert spark_kpca.__version__ == __version__
    # the build passes the version it packaged, when the tests run from Maven
    if "SPARK_KPCA_MAVEN_VERSION" in os.environ:
        assert os.environ["SPARK_KPCA_MAVEN_VERSION"] == MAVEN_VERSION


def test_pyproject_takes_the_version_from_the_package():
    text = (ROOT / "python" / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in text
    assert 'version = { attr = "spark_kpca._version.__version__" }' in text
    assert 'name = "spark-kpca"' in text
    assert "Apache-2.0" in text


def test_py_typed_marker_is_shipped():
    assert (Path(spark_kpca.__file__).parent / "py.typed").is_file()


def test_pyspark_matches_the_build():
    import pyspark

    spark_version = os.environ.get("SPARK_KPCA_SPARK_VERSION")
    if spark_version is None:
        pytest.skip("not run from Maven")
    assert pyspark.__version__.split(".")[:2] == spark_version.split(".")[:2]
    assert _jar.pyspark_scala_version() == os.environ["SPARK_KPCA_SCALA_BINARY_VERSION"]


def test_jar_path_finds_the_jar_of_pyspark_scala_version(monkeypatch):
    monkeypatch.delenv(_jar.JAR_ENV, raising=False)
    scala = _jar.pyspark_scala_version()
    expected_name = f"spark-kpca-core_{scala}-{MAVEN_VERSION}.jar"
    target = ROOT / "spark-kpca-core" / "target" / expected_name
    if not target.is_file():
        pytest.skip(f"{target} not built")
    assert Path(spark_kpca.jar_path()) == target
    other = "2.12" if scala == "2.13" else "2.13"
    if not (ROOT / "spark-kpca-core" / "target" / f"spark-kpca-core_{other}-{MAVEN_VERSION}.jar").exists():
        with pytest.raises(FileNotFoundError, match=f"no spark-kpca library jar for Scala {other}"):
            spark_kpca.jar_path(other)


def test_jar_path_prefers_a_jar_shipped_in_the_package(monkeypatch, tmp_path):
    monkeypatch.delenv(_jar.JAR_ENV, raising=False)
    package = tmp_path / "spark_kpca"
    (package / "jars").mkdir(parents=True)
    for scala in ("2.12", "2.13"):
        (package / "jars" / f"spark-kpca-core_{scala}-{MAVEN_VERSION}.jar").write_bytes(b"PK")
    monkeypatch.setattr(_jar, "__file__", str(package / "_jar.py"))
    assert spark_kpca.jar_path("2.12") == str(package / "jars" / f"spark-kpca-core_2.12-{MAVEN_VERSION}.jar")
    assert spark_kpca.jar_path("2.13") == str(package / "jars" / f"spark-kpca-core_2.13-{MAVEN_VERSION}.jar")
    with pytest.raises(ValueError, match="expected '2.12' or '2.13'"):
        spark_kpca.jar_path("3")


def test_jar_path_honours_the_environment(monkeypatch, tmp_path):
    jar = tmp_path / "x.jar"
    jar.write_bytes(b"PK")
    monkeypatch.setenv(_jar.JAR_ENV, str(jar))
    assert spark_kpca.jar_path() == str(jar)
    monkeypatch.setenv(_jar.JAR_ENV, str(tmp_path / "missing.jar"))
    with pytest.raises(FileNotFoundError, match="missing.jar: no such file"):
        spark_kpca.jar_path()


def test_java_packages_are_aliases_of_the_ml_module():
    import spark_kpca.ml as ml
    from spark_kpca._java_classes import JAVA_CLASSES

    for python_name, java_name in JAVA_CLASSES.items():
        package, simple = java_name.rsplit(".", 1)
        assert simple == python_name
        assert sys.modules[package] is ml
        module = __import__(package, fromlist=[simple])
        assert getattr(module, simple) is getattr(ml, python_name)
    # the standard library's io module is untouched
    import io

    assert not hasattr(io, "github")


def import_graph(package_dir: Path) -> dict:
    """Each module of the package (dotted name) and the package's modules it imports, anywhere in its body (an
    import inside a function closes a cycle as well as one at the top)."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        modules[name] = (path, name if is_package else name.rsplit(".", 1)[0])
    graph = {}
    for name, (path, package) in modules.items():
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    kept = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(kept + ([node.module] if node.module else []))
                # "from spark_kpca import _jar" imports the module spark_kpca._jar; "from x import name", x
                imported.update(
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
                )
        graph[name] = sorted(m for m in imported if m in modules and m != name)
    return graph


def import_cycle(graph: dict) -> list:
    """One cycle of the graph as its modules in import order, first repeated last; [] when it has none."""
    state = {}
    path = []

    def visit(module):
        state[module] = "open"
        path.append(module)
        for target in graph[module]:
            if state.get(target) == "open":
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        state[module] = "done"
        path.pop()
        return []

    for module in graph:
        if module not in state:
            found = visit(module)
            if found:
                return found
    return []


def test_import_cycle_finds_a_cycle_and_no_false_one():
    assert import_cycle({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) in (
        ["a", "b", "c", "a"],
        ["b", "c", "a", "b"],
        ["c", "a", "b", "c"],
    )
    assert import_cycle({"a": ["b", "c"], "b": ["c"], "c": []}) == []


def test_the_package_has_no_import_cycle():
    # errors at the bottom, the JVM bridge above it, the stages above both: no module imports one that imports it
    graph = import_graph(Path(spark_kpca.__file__).parent)
    assert "spark_kpca.errors" in graph["spark_kpca._jvm"]
    # errors imports only the jar lookup (inside a function, which the graph sees), for its messages' hint
    assert graph["spark_kpca.errors"] == ["spark_kpca._jar"]
    cycle = import_cycle(graph)
    assert cycle == [], "import cycle: " + " -> ".join(cycle)

