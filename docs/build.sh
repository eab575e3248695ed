#!/usr/bin/env bash
# Builds the documentation site (MkDocs + Material) from docs/ into site/ (or the directory given), strictly: a
# dead link, a missing page, a page without a title or a summary paragraph fails the build.
#
#   docs/build.sh [--javadoc] [output directory]
#
# --javadoc first runs `mvn -B -q compile javadoc:javadoc` and puts the Javadoc into the site under api/java/
# (bin/spark-kpca docs does this). Without it the Java reference lists the public classes with their Javadoc
# summaries, read from the sources, and links to no Javadoc.
#
# The Maven build runs it in the verify phase of the spark-kpca-python module (mvn -B verify). It creates a
# virtual environment with the pinned tools of docs/requirements.txt under ~/.cache/spark-kpca/docs/ (or
# $SPARK_KPCA_DOCS_CACHE), named after a hash of the requirements and the Python version, so it is made once
# (a minute of downloads) and reused until they change, as python/run-tests.sh does for the tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
javadoc=""
if [ "${1:-}" = "--javadoc" ]; then
  javadoc=1
  shift
fi
out="${1:-$root/site}"

python="${PYTHON:-}"
if [ -z "$python" ]; then
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
  done
fi
if [ -z "$python" ]; then
  echo "docs/build.sh: no python3 on PATH (set PYTHON to a Python 3.9+ interpreter)" >&2
  exit 2
fi
py_version="$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
key="$( (cat "$root/docs/requirements.txt"; printf 'python %s\n' "$py_version") | sha256sum | cut -c1-16)"
cache="${SPARK_KPCA_DOCS_CACHE:-$HOME/.cache/spark-kpca/docs}"
venv="$cache/venv-$key"
if [ ! -f "$venv/.complete" ]; then
  echo "docs/build.sh: creating $venv (Python $py_version)"
  rm -rf "$venv"
  mkdir -p "$cache"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/docs/requirements.txt"
  touch "$venv/.complete"
fi

if [ -n "$javadoc" ]; then
  command -v mvn >/dev/null || { echo "docs/build.sh: --javadoc needs Maven (mvn)" >&2; exit 2; }
  echo "docs/build.sh: building the Javadoc (mvn -B -q compile javadoc:javadoc)"
  (cd "$root" && mvn -B -q compile javadoc:javadoc)
  export SPARK_KPCA_DOCS_JAVADOC=1
fi

export NO_MKDOCS_2_WARNING=1
start=$SECONDS

# The checks are checked: a one-page site with a dead link, and one whose page has no summary paragraph, must
# fail the strict build with the hooks' and MkDocs' own messages.
check_fails() {
  local name="$1" page="$2" expected="$3" dir
  dir="$(mktemp -d)"
  mkdir -p "$dir/docs"
  printf '%s\n' "$page" > "$dir/docs/index.md"
  printf 'site_name: check\nrepo_url: https://github.com/spark-kpca/spark-kpca\nhooks: [%s]\nextra: {generated_pages: false}\n' \
    "$root/docs/tools/hooks.py" > "$dir/mkdocs.yml"
  if (cd "$dir" && "$venv/bin/mkdocs" build --strict --site-dir "$dir/site") > "$dir/log" 2>&1; then
    echo "docs/build.sh: the strict build accepted a page with $name" >&2; cat "$dir/log" >&2; exit 1
  fi
  if ! grep -q "$expected" "$dir/log"; then
    echo "docs/build.sh: the strict build failed on a page with $name, but not for it:" >&2; cat "$dir/log" >&2; exit 1
  fi
  rm -rf "$dir"
}
check_fails "a dead link" $'# Check\n\nA page that links to [a page that is not there](missing.md), which must fail.' "missing.md"
check_fails "no summary" $'# Check\n\n- a list where the summary paragraph should be' "no summary paragraph"

cd "$root"
"$venv/bin/mkdocs" build --strict --site-dir "$out"
echo "docs/build.sh: built the site in $((SECONDS - start)) s; open $out/index.html"
