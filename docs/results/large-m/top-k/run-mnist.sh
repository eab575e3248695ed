#!/bin/bash
# MNIST train (60,000 × 784), k = 50, gamma = 1e-7 (the m-sweep's setting), local[2] with one OpenBLAS thread per
# task: the top-k route against the whitened route (what `auto` took at these m before the top-k route existed:
# the Gram route's error bound fails at cond(K_mm) ~ 1e7-1e8) at m = 8000, 12,000 and 16,000. Each fit is its own
# JVM under /usr/bin/time -v, so that each peak RSS is its own; the top-k fits run in a 4 GiB heap, the whitened
# ones in the heap their m×m matrices need. From the repository root; about 30 minutes on 2 cores; needs native
# OpenBLAS and bin/fetch-mnist.
#
#   docs/results/large-m/top-k/run-mnist.sh OUT [M ...]
set -euo pipefail
out="${1:?output directory}"
shift
ms=("${@:-8000 12000 16000}")
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1
for m in ${ms[*]}; do
  for route in top-k whitened; do
    if [ "$route" = top-k ]; then heap=4g; else heap=$(( m <= 8000 ? 8 : (m <= 12000 ? 12 : 20) ))g; fi
    JAVA_OPTS=-Xmx$heap /usr/bin/time -v bin/spark-kpca bench --input mnist:train --m "$m" --k 50 --gamma 1e-7 \
      --statistics-route "$route" --no-transform --no-warmup --no-plots --master 'local[2]' \
      --out "$out/m$m-$route" > "$out/m$m-$route.log" 2>&1
    grep -E "Maximum resident|Elapsed" "$out/m$m-$route.log"
    tail -n +2 "$out/m$m-$route/bench.csv"
  done
done
