#!/usr/bin/env bash
# Builds the spark-kpca wheel carrying the library jars, as spark_kpca.jar_path() finds them:
#
#   python/build-wheel.sh <out dir> <spark-kpca-core_2.12 jar> <spark-kpca-core_2.13 jar>   (either may be omitted)
#
# The jars (built with `mvn -B -P spark-3.5 clean package -DskipTests` and `mvn -B -DskipTests package`) are copied
# into spark_kpca/jars/ of a staging copy of this directory, never into the source tree; the wheel then runs on
# PySpark 3.5 and 4.x alike. Needs pip (it builds in pip's isolated build environment).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 2 ]; then
  echo "usage: $0 <out dir> <library jar>..." >&2
  exit 2
fi
out="$1"
shift
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -r "$here/pyproject.toml" "$here/setup.py" "$here/README.md" "$here/src" "$stage/"
mkdir -p "$stage/src/spark_kpca/jars"
for jar in "$@"; do
  case "$(basename "$jar")" in
    spark-kpca-core_2.1[23]-*.jar) ;;
    *) echo "build-wheel.sh: not a library jar: $jar (expected spark-kpca-core_<scala>-<version>.jar)" >&2; exit 2 ;;
  esac
  [ -f "$jar" ] || { echo "build-wheel.sh: no such file: $jar" >&2; exit 2; }
  cp "$jar" "$stage/src/spark_kpca/jars/"
done
mkdir -p "$out"
python3 -m pip wheel --no-deps --quiet -w "$out" "$stage"
ls "$out"/spark_kpca-*.whl
