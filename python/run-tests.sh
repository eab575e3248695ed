#!/usr/bin/env bash
# Runs the Python package's tests (pytest) against the library jar the Maven build just packaged.
#
#   python/run-tests.sh <pyspark version> <library jar> [pytest arguments...]
#
# The Maven build calls it in the integration-test phase of the spark-kpca-python module. It creates a
# virtual environment with PySpark, numpy and pytest under ~/.cache/spark-kpca/python/ (or
# $SPARK_KPCA_PY_CACHE), named after a hash of its requirements (the PySpark version, requirements-test.txt
# and the Python version), so it is made once and reused until the requirements change. Exit status: pytest's,
# except that "no tests collected" (pytest's 5) is a failure too (1 + a message).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 2 ]; then
  echo "usage: $0 <pyspark version> <library jar> [pytest arguments...]" >&2
  exit 2
fi
pyspark_version="$1"
jar="$2"
shift 2
if [ ! -f "$jar" ]; then
  echo "run-tests.sh: library jar not found: $jar (package spark-kpca-core first)" >&2
  exit 2
fi
python="${PYTHON:-}"
if [ -z "$python" ]; then
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
  done
fi
if [ -z "$python" ]; then
  echo "run-tests.sh: no python3 on PATH (set PYTHON to a Python 3.9+ interpreter)" >&2
  exit 2
fi

requirements="$(printf 'pyspark==%s\n' "$pyspark_version"; grep -v '^#' "$here/requirements-test.txt")"
py_version="$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
key="$(printf '%s\npython %s\n' "$requirements" "$py_version" | sha256sum | cut -c1-16)"
cache="${SPARK_KPCA_PY_CACHE:-$HOME/.cache/spark-kpca/python}"
venv="$cache/venv-$key"
if [ ! -f "$venv/.complete" ]; then
  echo "run-tests.sh: creating $venv (pyspark $pyspark_version, Python $py_version)"
  rm -rf "$venv"
  mkdir -p "$cache"
  "$python" -m venv "$venv"
  printf '%s\n' "$requirements" > "$venv/requirements.txt"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$venv/requirements.txt"
  touch "$venv/.complete"
else
  echo "run-tests.sh: reusing $venv (pyspark $pyspark_version)"
fi

export SPARK_KPCA_JAR="$jar"
# The tests start Spark through PySpark's launcher; the environment's own SPARK_HOME must not redirect it.
unset SPARK_HOME PYSPARK_PYTHON PYSPARK_DRIVER_PYTHON
export PYSPARK_PYTHON="$venv/bin/python"
cd "$here"
status=0
"$venv/bin/python" -m pytest -p no:cacheprovider "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "run-tests.sh: pytest collected no tests; failing the build" >&2
  exit 1
fi
exit "$status"
