#!/bin/bash
# m landmarks (default 50,000, above one Java array's 46,340) with the top-k route on a 2-core machine: synthetic
# clusters (make_data.py: n = 100,000, d = 100, 20 clusters), k = 50, rbf at the median heuristic, local[2], a
# 14 GiB driver heap. From the repository root; about 25 minutes at m = 50,000. Writes the model and its
# export under WORK, and beside this script the fit's log with /usr/bin/time's account (peak RSS) and the
# independent numpy check of the exported projector (check_projector.py).
#
#   docs/results/large-m/top-k/run-m50000.sh WORK [M] [N]
set -euo pipefail
work="${1:?work directory (the data, the model and its export: several GB)}"
m="${2:-50000}"
n="${3:-100000}"
here="$(cd "$(dirname "$0")" && pwd)"
python="${PYTHON:-python3}"   # an interpreter with numpy
mkdir -p "$work"
"$python" "$here/make_data.py" --n "$n" --d 100 --clusters 20 --seed 1 --out "$work/data-$n.csv"
export OPENBLAS_NUM_THREADS=1
rm -rf "$work/model-$m" "$work/export-$m"
JAVA_OPTS="-Xmx14g -Xlog:gc:file=$work/gc-$m.log" /usr/bin/time -v bin/spark-kpca fit --input "$work/data-$n.csv" --k 50 --landmarks "$m" \
  --seed 1 --statistics-route top-k --master 'local[2]' --model-out "$work/model-$m" \
  > "$here/m$m-fit.log" 2>&1
grep -E "whitening|top-k:|fitted in|Maximum resident|Elapsed" "$here/m$m-fit.log" | tail -8
bin/spark-kpca export --model "$work/model-$m" --out "$work/export-$m" > "$here/m$m-export.log" 2>&1
"$python" "$here/check_projector.py" --export "$work/export-$m" --data "$work/data-$n.csv" \
  | tee "$here/m$m-check.txt"
