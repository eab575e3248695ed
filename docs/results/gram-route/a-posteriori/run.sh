#!/bin/bash
# The a-posteriori comparison of docs/gram-route.md ("An a-posteriori check"): MNIST train, k = 50,
# gamma = 1e-7, seed 1, the same m fitted by the Gram route and by the whitened route, then RouteErrorProbe
# compares the two models with the error estimates. From the repository root, after bin/fetch-mnist:
#
#   docs/results/gram-route/a-posteriori/run.sh OUT_DIR 2000 8000
#
# About 2 minutes at m = 2000 and 8 at m = 8000 on 2 cores (the fits dominate).
set -euo pipefail
out="${1:?output directory}"
shift
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1
for m in "$@"; do
  for route in gram whitened; do
    bin/spark-kpca fit --input mnist:train --landmarks "$m" --k 50 --gamma 1e-7 --seed 1 --statistics-route "$route" \
      --model-out "$out/m$m-$route" --summary-out "$out/m$m-$route.json" > "$out/m$m-$route.log" 2>&1
  done
  java -Xmx8g -cp "spark-kpca-core/target/classes:$(cat spark-kpca-examples/target/classpath.txt)" \
    "$here/RouteErrorProbe.java" "$out/m$m-gram" "$out/m$m-whitened" 60000 2>/dev/null | tee "$out/probe-m$m.txt"
done
