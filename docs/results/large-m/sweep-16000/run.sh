#!/bin/bash
# The m-sweep of docs/results/large-m/README.md, section 0: MNIST train, k = 50, gamma = 1e-7, local[2] with one
# OpenBLAS thread per task, from the repository root. About 75 minutes on 2 cores; needs native OpenBLAS,
# bin/fetch-mnist, python3-sklearn and python3-matplotlib.
#
#   docs/results/large-m/sweep-16000/run.sh docs/results/large-m/sweep-16000
#
# m = 2000, 4000, 8000: scikit-learn runs beside each point in the same bench run (--compare sklearn).
# m = 16,000: spark-kpca's JVM needs about 18 GB of heap and scikit-learn about 17 GB, more than the machine's
# 24 GB together, so spark-kpca runs alone and scikit-learn right after it, alone; combine.py pairs them by m.
set -euo pipefail
out="${1:?output directory}"
python="${PYTHON:-python3}"   # an interpreter with scikit-learn and matplotlib
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1
JAVA_OPTS=-Xmx20g bin/spark-kpca bench --input mnist:train --m 16000 --k 50 --gamma 1e-7 \
  --no-transform --master 'local[2]' --out "$out/m16000" 2>&1 | tee "$out/m16000.log"
# scikit-learn with its default of one OpenBLAS thread per core, as the bench runs it.
env -u OPENBLAS_NUM_THREADS "$python" spark-kpca-examples/bench/sklearn_nystroem.py --input mnist:train --m 16000 \
  --k 50 --gamma 1e-7 --seed 1 --max-memory 21G --json-out "$out/sklearn-m16000.json" 2>&1 | tee "$out/sklearn-m16000.log"
JAVA_OPTS=-Xmx12g bin/spark-kpca bench --input mnist:train --m 2000,4000,8000 --k 50 --gamma 1e-7 \
  --compare sklearn --python "$python" --no-transform --master 'local[2]' --out "$out/m2000-8000" 2>&1 \
  | tee "$out/m2000-8000.log"
"$python" "$here/combine.py" --compare "$out/m2000-8000/compare.csv" --bench "$out/m2000-8000/bench.csv" \
  --bench "$out/m16000/bench.csv" \
  --sklearn-json "$out/sklearn-m16000.json" --out "$out"
