#!/usr/bin/env bash
# Figure 2 of Ullah et al. (NeurIPS 2018) on MNIST: pixels in [0, 1], rbf kernel with sigma^2 = 50 (gamma = 0.01),
# k = 10. A stream of 10 files of 2000 training rows (drawn with SEED; one file per micro-batch), so n = 20,000, and
# the variance captured under the exact kernel on the 10,000 MNIST test rows after every micro-batch.
# D = ceil(c sqrt(n) ln n) for n = 20,000: c = 0.5, 1, 2 give 701, 1401, 2802.
# Usage: docs/results/streaming/run.sh WORKDIR SEED [METHOD...]   (default: every method, then evaluate)
#   METHOD: rf-oja-701 rf-oja-1401 rf-oja-2802 rf-erm-1401 nystrom-1401 evaluate
# Needs the MNIST IDX files (bin/fetch-mnist) and python3 with numpy. SPARK_KPCA overrides bin/spark-kpca.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${1:?work directory}/seed-${2:?seed}"
seed="$2"
shift 2
methods=("$@")
[ ${#methods[@]} -gt 0 ] || methods=(rf-oja-701 rf-oja-1401 rf-oja-2802 rf-erm-1401 nystrom-1401 evaluate)
# RF-Oja's step schedule, tuned on a validation split of the training rows (tune.sh): eta_t = c/(t + t0) per
# mini-batch of b rows.
oja=(--algorithm oja --mini-batch "${OJA_MINI_BATCH:-100}" --step-schedule "${OJA_SCHEDULE:-inverse:1000:10}")
mkdir -p "$work"
cd "$work"
[ -f test.csv ] || python3 "$here/mnist_csv.py" "${MNIST_DIR:-$HOME/.cache/spark-kpca/mnist}" in test.csv 10 2000 \
  10000 "$seed"
cli="${SPARK_KPCA:-$root/bin/spark-kpca}"
common=(--k 10 --gamma 0.01 --seed "$seed" --label-col label --available-now --max-files-per-trigger 1
  --keep-versions 10 --master local[1] --progress-interval 0)
for method in "${methods[@]}"; do
  case "$method" in
    rf-oja-*) options=(--feature-map rff --features "${method#rf-oja-}" "${oja[@]}") ;;
    rf-erm-*) options=(--feature-map rff --features "${method#rf-erm-}") ;;
    nystrom-*) options=(--landmarks "${method#nystrom-}") ;;
    evaluate)
      # Every version of every finished method not evaluated yet, on one exact kernel matrix of all 10,000 test
      # rows; each call writes the next evaluate-N.json.
      versions=()
      for dir in models/*; do
        [ -d "$dir/version-000000000009" ] || continue
        grep -qs "\"$dir/version-" evaluate-*.json && continue
        for v in $(seq 0 9); do versions+=("$dir/version-$(printf %012d "$v")"); done
      done
      [ ${#versions[@]} -gt 0 ] || continue
      out="evaluate-$(( $( (ls evaluate-*.json 2>/dev/null || true) | wc -l) + 1 ))"
      uptime > "$out.load"
      JAVA_OPTS="${JAVA_OPTS:--Xmx8g}" /usr/bin/time -f "evaluate wall %e s" "$cli" evaluate --model "${versions[@]}" \
        --input test.csv --label-col label --exact-sample 10000 --summary-out "$out.json" --master local[1] \
        --progress-interval 0 2>&1 | grep -v WARN > "$out.log"
      uptime >> "$out.load"
      continue ;;
    *) echo "unknown method $method" >&2; exit 2 ;;
  esac
  uptime > "$method.load"
  /usr/bin/time -f "$method wall %e s" "$cli" stream --input in --model-out "models/$method" \
    --checkpoint "ckpt/$method" "${common[@]}" "${options[@]}" --summary-out "$method.json" 2>&1 | grep -v WARN \
    > "$method.log"
  uptime >> "$method.load"
done
