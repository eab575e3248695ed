"""Reference pages generated from the code each time the site is built (hooks.py adds them), so they cannot drift:

- reference/parameters.md: every Param of every stage with its type, default, valid values and doc text, read
  from python/src/spark_kpca/ml/_params.py, the file python/tools/generate_params.py generates from the Java
  stages (Param doc texts, Java defaults, ParamRules) and tests/test_params.py compares with the live JVM. The
  stage list and the output-only Params come from generate_params.py itself. Read by static analysis (ast): no
  PySpark, no JVM.
- reference/java.md: every public class of the library and the command line, with the first sentence of its
  Javadoc, read from the Java sources; with the Javadoc built (docs/build.sh --javadoc), each links to its page.

    python docs/tools/reference_pages.py OUT_DIR     # writes the pages there, to read them without MkDocs
"""

import ast
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[2]
PARAMS = Path("python/src/spark_kpca/ml/_params.py")
JAVA_SOURCES = {"core": "spark-kpca-core/src/main/java", "examples": "spark-kpca-examples/src/main/java"}

# PySpark type converter -> the type a user passes.
TYPES = {
    "toInt": "int",
    "toFloat": "float",
    "toBoolean": "bool",
    "toListFloat": "list of float",
    "toString": "str",
}


def generated_pages(root: Path = ROOT, javadoc: bool = False) -> Dict[str, str]:
    return {
        "reference/parameters.md": parameters_page(root),
        "reference/java.md": java_page(root, javadoc),
    }


# ---------------------------------------------------------------------------------------------------- Params


def _generator(root: Path) -> Any:
    """python/tools/generate_params.py as a module (its tables; it imports PySpark only when it runs)."""
    sys.path.insert(0, str(root / "python" / "tools"))
    sys.path.insert(0, str(root / "python" / "src"))
    import generate_params  # noqa: E402

    return generate_params


def _literal(node: ast.AST) -> Any:
    return ast.literal_eval(node)


class ParamsFile:
    """What _params.py declares: each mixin's Params, the rules, and each stage base's defaults and setters."""

    def __init__(self, source: str) -> None:
        tree = ast.parse(source)
        self.bases: Dict[str, List[str]] = {}
        self.params: Dict[str, Dict[str, Tuple[str, str]]] = {}  # class -> name -> (doc, type)
        self.defaults: Dict[str, Dict[str, Any]] = {}
        self.settable: Dict[str, List[str]] = {}
        self.rules: Dict[str, Tuple[Any, ...]] = {}
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "PARAM_RULES":
                self.rules = _literal(node.value)
            if not isinstance(node, ast.ClassDef):
                continue
            self.bases[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]
            params: Dict[str, Tuple[str, str]] = {}
            for item in node.body:
                target = getattr(item, "target", None) or (getattr(item, "targets", None) or [None])[0]
                name = getattr(target, "id", None)
                value = getattr(item, "value", None)
                if name is None or value is None:
                    continue
                if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "Param":
                    doc = _literal(value.args[2])
                    converter = next(k.value.attr for k in value.keywords if k.arg == "typeConverter")
                    params[name] = (doc, TYPES[converter])
                elif name == "_java_defaults":
                    self.defaults[node.name] = _literal(value)
                elif name == "_init_params":
                    self.settable[node.name] = _literal(value)
            self.params[node.name] = params

    def params_of(self, cls: str) -> Dict[str, Tuple[str, str]]:
        """The Params of a class and its generated bases (PySpark's own bases add none here)."""
        out: Dict[str, Tuple[str, str]] = {}
        for base in self.bases.get(cls, []):
            out.update(self.params_of(base))
        out.update(self.params.get(cls, {}))
        return out


def _default_text(value: Any, present: bool) -> str:
    if not present:
        return "unset"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, str):
        return f'`"{value}"`' if value else '`""` (none)'
    return f"`{value!r}`"


def _valid_text(rule: Optional[Tuple[Any, ...]], py_type: str) -> str:
    if rule is not None:
        kind, choices, requirement = rule[0], rule[5], rule[6]
        if kind in ("choice", "kernel"):
            return "one of " + ", ".join(f"`{c}`" for c in choices) + (" (any case)" if kind == "kernel" else "")
        return requirement.replace("must be ", "")
    return {"bool": "`true`, `false`", "str": "a column name or text"}.get(py_type, "any " + py_type)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").replace("<", "&lt;")


def parameters_page(root: Path = ROOT) -> str:
    generator = _generator(root)
    from spark_kpca._java_classes import JAVA_CLASSES

    params_file = ParamsFile((root / PARAMS).read_text(encoding="utf-8"))
    lines = [
        "# Parameters of every stage",
        "",
        "Every Param of every Spark ML stage, with its type, default, valid values and description. This page is",
        "generated when the site is built, from the Python Params (`python/src/spark_kpca/ml/_params.py`), which",
        "`python/tools/generate_params.py` generates from the Java stages' Param definitions, defaults and",
        "validation rules, and which the Python tests compare with the live Java stages (`tests/test_params.py`):",
        "Java, Scala and Python share these names and defaults, and a Param that changes in Java changes here.",
        "The command line's options map onto them: see [the command-line reference](cli.md). What the numbers",
        "mean for each kernel: [Kernels and what the numbers mean](../kernels.md).",
        "",
        "A Param whose value is refused is refused when it is set, with the Java rule's message",
        "(`gamma must be finite and > 0; got -1.0`). *unset* means the stage chooses at fit time (for example γ",
        "by the median heuristic) or the Param is required (`k`).",
        "",
    ]
    output_only = {name for names in generator.OUTPUT_ONLY.values() for name in names}
    for stage, mixin, estimator in generator.STAGES:
        base = f"_{stage}Base"
        params = params_file.params_of(mixin)
        defaults = params_file.defaults.get(base, {})
        settable = set(params_file.settable.get(base, []))
        kind = "estimator or evaluator" if estimator else "model"
        lines += [
            f"## {stage}",
            "",
            f"Java `{JAVA_CLASSES[stage]}`, Python `spark_kpca.ml.{stage}` ({kind}; {len(params)} Params).",
            "",
            "| Param | type | default | valid values | description |",
            "|---|---|---|---|---|",
        ]
        for name in sorted(params):
            doc, py_type = params[name]
            note = ""
            if not estimator and name not in settable:
                note = " *Set by the fit; read-only on the model.*"
            elif name in output_only:
                note = " *Set by the fit.*"
            lines.append(
                f"| `{name}` | {py_type} | {_default_text(defaults.get(name), name in defaults)} "
                f"| {_cell(_valid_text(params_file.rules.get(name), py_type))} | {_cell(doc)}{note} |"
            )
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------- Java

TYPE_DECL = re.compile(
    r"/\*\*((?:(?!\*/).)*)\*/\s*(?:@\w+(?:\([^)]*\))?\s*)*public\s+(?:(?:final|abstract|sealed|static)\s+)*"
    r"(class|interface|record|enum|@interface)\s+(\w+)",
    re.S,
)
PACKAGE_DOC = re.compile(r"/\*\*((?:(?!\*/).)*)\*/\s*package\s+([\w.]+)", re.S)


def summary_sentence(javadoc: str) -> str:
    """The first sentence of a Javadoc comment, as Markdown (code spans for {@code}/{@link})."""
    text = "\n".join(re.sub(r"^\s*\*", "", line) for line in javadoc.split("\n"))
    text = re.split(r"\n\s*@\w|<p>|<ul>|<ol>|<pre>|<table>", text)[0]

    def inline(match: "re.Match[str]") -> str:
        tag, body = match.group(1), match.group(2).strip()
        if tag in ("link", "linkplain"):
            parts = body.split(None, 1)
            return parts[1] if len(parts) > 1 else "`" + parts[0].lstrip("#").replace("#", ".") + "`"
        return "`" + body + "`"

    text = re.sub(r"\{@(code|link|linkplain|literal)\s+((?:[^{}]|\{[^{}]*\})*)\}", inline, text)
    text = re.sub(r"</?\w+[^>]*>", "", text)
    text = " ".join(text.split())
    match = re.search(r"^(.+?[.!?])(\s+[A-Z(`]|$)", text)
    sentence = match.group(1) if match else text
    return sentence.replace("|", "\\|")


def java_types(root: Path) -> List[Tuple[str, str, str, str, str]]:
    """(module, package, kind, name, summary) of every public top-level type, by module and package."""
    found = []
    for module, directory in JAVA_SOURCES.items():
        for source in sorted((root / directory).rglob("*.java")):
            if source.name in ("package-info.java", "module-info.java"):
                continue
            text = source.read_text(encoding="utf-8")
            package = re.search(r"^package\s+([\w.]+);", text, re.M)
            match = TYPE_DECL.search(text)
            if not package or not match or match.group(3) != source.stem:
                continue
            # Top-level only: the declaration named like the file, at the start of a line.
            found.append((module, package.group(1), match.group(2), match.group(3), summary_sentence(match.group(1))))
    return found


def package_summaries(root: Path) -> Dict[str, str]:
    out = {}
    for directory in JAVA_SOURCES.values():
        for info in (root / directory).rglob("package-info.java"):
            match = PACKAGE_DOC.search(info.read_text(encoding="utf-8"))
            if match:
                out[match.group(2)] = summary_sentence(match.group(1))
    return out


def java_page(root: Path = ROOT, javadoc: bool = False) -> str:
    modules = {
        "core": "The library, `spark-kpca-core` (Maven artifact `io.github.sparkkpca:spark-kpca-core_2.13`)",
        "examples": "The command line, data sources, reproductions and charts, `spark-kpca-examples`",
    }
    lines = [
        "# Java API",
        "",
        "Every public class and interface of the library and of the command-line module, with the first sentence",
        "of its Javadoc, by package. This page is generated from the Java sources when the site is built.",
    ]
    if javadoc:
        lines += [
            "Each name links to its full Javadoc, built with the site",
            "([library](../api/java/core/index.html), [command line](../api/java/examples/index.html)).",
        ]
    else:
        lines += [
            "The full Javadoc (every method, with its mathematics) is built by `mvn -B -q compile javadoc:javadoc`",
            "into `spark-kpca-core/target/reports/apidocs/`; `bin/spark-kpca docs` builds it into this site, where",
            "each name below then links to its page.",
        ]
    lines += [
        "The Params of the stages, with defaults and valid values, are in [Parameters](parameters.md); the Python",
        "classes in [Python API](python.md).",
        "",
    ]
    packages = package_summaries(root)
    types = java_types(root)
    for module, title in modules.items():
        lines += [f"## {title}", ""]
        current = None
        for mod, package, kind, name, summary in types:
            if mod != module:
                continue
            if package != current:
                current = package
                lines += ["", f"### `{package}`", ""]
                if package in packages:
                    lines += [packages[package], ""]
            label = f"`{name}`"
            if javadoc:
                label = f"[{label}](../api/java/{module}/{package.replace('.', '/')}/{name}.html)"
            kind_text = "" if kind == "class" else f" ({kind})"
            lines.append(f"- {label}{kind_text}: {summary}")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "reference-pages")
    for path, text in generated_pages().items():
        target = out_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target}")
