#!/usr/bin/env bash
# Figure 2 of Ullah et al. (NeurIPS 2018), reduced: MNIST pixels in [0, 1], rbf kernel with sigma^2 = 50
# (gamma = 0.01), k = 10, a stream of 6 files of 1000 training rows (one file per micro-batch), held-out variance
# under the exact kernel on 1000 test rows after 1000, 3000 and 6000 rows.
# Usage: docs/results/streaming/run.sh WORKDIR   (needs the MNIST IDX files: bin/fetch-mnist; python3 with numpy)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${1:?work directory}"
mkdir -p "$work"
cd "$work"
python3 "$here/mnist_csv.py" "${MNIST_DIR:-$HOME/.cache/spark-kpca/mnist}" in heldout.csv 6 1000 1000
cli="$root/bin/spark-kpca"
common=(--k 10 --gamma 0.01 --seed 1 --label-col label --available-now --max-files-per-trigger 1 --keep-versions 10
  --master local[2] --progress-interval 0)
run() {  # name, stream options...
  local name="$1"; shift
  /usr/bin/time -f "$name wall %e s" "$cli" stream --input in --model-out "models/$name" --checkpoint "ckpt/$name" \
    "${common[@]}" "$@" --summary-out "$name.json" 2>&1 | grep -v WARN | tee "$name.log"
  for v in 0 2 5; do
    "$cli" evaluate --model "models/$name/version-$(printf %012d $v)" --input heldout.csv --label-col label \
      --exact-sample 1000 --summary-out "$name-$v.json" --master local[2] --progress-interval 0 2>&1 | grep -v WARN \
      | tail -2
  done
}
# D = c sqrt(n) ln n for n = 6000 rows: c = 1 gives 674, c = 0.5 gives 337.
run rf-oja-674 --feature-map rff --features 674 --algorithm oja --mini-batch 10 --step-schedule inverse:50:100
run rf-oja-337 --feature-map rff --features 337 --algorithm oja --mini-batch 10 --step-schedule inverse:50:100
run rf-erm-674 --feature-map rff --features 674
run nystrom-674 --landmarks 674
