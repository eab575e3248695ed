#!/usr/bin/env bash
# RF-Oja step-schedule grid on a validation split of the MNIST training rows (the test rows are never read):
# a stream of 6 files of 1000 training rows (seed 7) and 2000 further training rows held out; D = 1401 (the c = 1
# budget of the full run, n = 20,000), k = 10, gamma = 0.01. Each setting streams the 6000 rows and is evaluated
# on the 2000 validation rows (exact kernel, all of them) after 2000 and 6000 rows.
# Usage: docs/results/streaming/tune.sh WORKDIR "MINI_BATCH SCHEDULE" ...   (run two settings at a time)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${1:?work directory}"; shift
mkdir -p "$work"
cd "$work"
[ -f val.csv ] || python3 "$here/mnist_csv.py" "${MNIST_DIR:-$HOME/.cache/spark-kpca/mnist}" tune val.csv 6 1000 2000 7 validation
cli="${SPARK_KPCA:-$root/bin/spark-kpca}"
one() {  # "mini-batch schedule"
  set -- $1
  local name="b$1-${2//:/_}"
  [ -d "models/$name/version-000000000005" ] && return 0  # done by an earlier call
  /usr/bin/time -f "$name wall %e s" "$cli" stream --input tune --model-out "models/$name" --checkpoint "ckpt/$name" \
    --k 10 --gamma 0.01 --seed 1 --label-col label --available-now --max-files-per-trigger 1 --keep-versions 10 \
    --master local[1] --progress-interval 0 --feature-map rff --features 1401 --algorithm oja --mini-batch "$1" \
    --step-schedule "$2" > "$name.log" 2>&1
}
export -f one; export cli
printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'one "{}"'
# Every setting's versions 1 and 5 (2000 and 6000 rows) on one exact kernel matrix of the validation rows.
versions=()
for setting in "$@"; do
  set -- $setting
  for v in 1 5; do versions+=("models/b$1-${2//:/_}/version-$(printf %012d $v)"); done
done
"$cli" evaluate --model "${versions[@]}" --input val.csv --label-col label --exact-sample 2000 \
  --summary-out "tune-$(date +%s).json" --master local[2] --progress-interval 0 2>&1 | grep captured
