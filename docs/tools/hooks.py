"""MkDocs hooks of the documentation site (mkdocs.yml, ``hooks:``).

- ``on_files`` adds the generated reference pages (reference/parameters.md from the generated Python Params,
  reference/java.md from the Java sources; see reference_pages.py) and, when docs/build.sh --javadoc built it,
  the Javadoc under api/java/.
- ``on_page_markdown`` checks that every page opens with a title (``# ...``) followed by a summary paragraph,
  and rewrites links that leave docs/ (to source files, the bench report, python/README.md) or point at a
  directory into links to the repository on GitHub, after checking that the target exists in the checkout: a
  link to a missing file is an error, as MkDocs makes a dead link between pages one under ``--strict``.

Problems are logged as warnings on MkDocs' logger, so ``mkdocs build --strict`` fails on them and lists them all.
"""

import logging
import os
import posixpath
import re
import sys
from pathlib import Path
from typing import Any, Optional

from mkdocs.structure.files import File, Files

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_pages  # noqa: E402

log = logging.getLogger("mkdocs.hooks.spark_kpca")

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BRANCH = "main"
JAVADOC_MODULES = {"core": "spark-kpca-core", "examples": "spark-kpca-examples"}
# Charts that live beside the code that makes them, shown in the site under these paths (images only).
MOUNTS = {"docs/bench/": "spark-kpca-examples/bench/"}

# An inline Markdown link or image: [text](target) or ![alt](target "title"); the target has no spaces.
LINK = re.compile(r"(!?\[[^\]\n]*\]\()([^)\s]+)((?:\s+\"[^\"]*\")?\))")
FENCE = re.compile(r"^(```|~~~)")


def on_files(files: Files, config: Any) -> Files:
    if not config["extra"].get("generated_pages", True):  # docs/build.sh's check of the checks
        return files
    for path, text in reference_pages.generated_pages(ROOT, javadoc=javadoc_enabled()).items():
        files.append(File.generated(config, path, content=text))
    for mount, source_dir in MOUNTS.items():
        for source in sorted((ROOT / source_dir).rglob("*.png")):
            uri = mount[len("docs/"):] + source.relative_to(ROOT / source_dir).as_posix()
            files.append(File.generated(config, uri, abs_src_path=str(source)))
    if javadoc_enabled():
        for name, module in JAVADOC_MODULES.items():
            # maven-javadoc-plugin 3.11 writes target/reports/apidocs (older versions target/site/apidocs).
            candidates = [ROOT / module / "target" / d / "apidocs" for d in ("reports", "site")]
            apidocs = next((c for c in candidates if (c / "index.html").is_file()), candidates[0])
            if not (apidocs / "index.html").is_file():
                log.warning("docs: %s has no Javadoc (%s missing); run docs/build.sh --javadoc", module, apidocs)
                continue
            # Its legal/*.md notices would become pages of the site; the Javadoc HTML does not link them.
            for source in sorted(p for p in apidocs.rglob("*") if p.is_file() and p.suffix != ".md"):
                uri = f"api/java/{name}/" + source.relative_to(apidocs).as_posix()
                files.append(File.generated(config, uri, abs_src_path=str(source)))
    return files


def javadoc_enabled() -> bool:
    return os.environ.get("SPARK_KPCA_DOCS_JAVADOC", "") == "1"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    src = page.file.src_uri
    check_title_and_summary(src, markdown)
    repo_url = config["repo_url"].rstrip("/")
    out = []
    in_fence = False
    for line in markdown.split("\n"):
        if FENCE.match(line.lstrip()):
            in_fence = not in_fence
        if not in_fence and "](" in line:
            line = LINK.sub(lambda m: m.group(1) + rewrite(src, m.group(2), repo_url, files) + m.group(3), line)
        out.append(line)
    return "\n".join(out)


def rewrite(page_src: str, target: str, repo_url: str, files: Files) -> str:
    """The link target as the site should have it: a path that stays inside docs/ for its pages and files, else
    the file's address on GitHub."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
        return target
    path, _, anchor = target.partition("#")
    if not path:
        return target
    resolved = posixpath.normpath(posixpath.join("docs", posixpath.dirname(page_src), path))
    absolute = ROOT / resolved
    for mount, source_dir in MOUNTS.items():
        if resolved.startswith(mount):
            if not (ROOT / source_dir / resolved[len(mount):]).is_file():
                log.warning("docs: %s links to %s, which does not exist (%s)", page_src, target, resolved)
            return target
    inside = resolved.startswith("docs/") and not resolved.startswith("docs/tools/")
    if inside and (absolute.is_file() or files.get_file_from_path(resolved[len("docs/"):]) is not None):
        # A page or file of the site (MkDocs checks it), as a path that stays inside docs/.
        relative = posixpath.relpath(resolved, posixpath.join("docs", posixpath.dirname(page_src)))
        return relative + (f"#{anchor}" if anchor else "")
    if resolved.startswith("../") or not absolute.exists():
        log.warning("docs: %s links to %s, which does not exist (%s)", page_src, target, resolved)
        return target
    kind = "tree" if absolute.is_dir() else "blob"
    return f"{repo_url}/{kind}/{BRANCH}/{resolved.rstrip('/')}" + (f"#{anchor}" if anchor else "")


def check_title_and_summary(src: str, markdown: str) -> None:
    """A page opens with ``# Title`` and then a paragraph of prose (not a list, table, code or heading)."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", markdown.strip()) if b.strip()]
    if not blocks or not re.match(r"^# \S", blocks[0]):
        log.warning("docs: %s does not open with a title line '# ...'", src)
        return
    first = blocks[0].split("\n", 1)
    summary: Optional[str] = first[1].strip() if len(first) > 1 else (blocks[1] if len(blocks) > 1 else None)
    if not summary or re.match(r"^(#|[-*+] |\d+\. |\||```|~~~|!\[|<|:::)", summary) or len(summary) < 40:
        log.warning("docs: %s has no summary paragraph after its title", src)
