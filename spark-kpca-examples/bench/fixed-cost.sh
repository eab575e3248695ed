#!/usr/bin/env bash
# The fixed cost of a small command against Spark's own floor, measured in interleaved pairs (A B A B ...):
#   A = bin/spark-kpca transform of a 1,000-row × 20-column CSV with a saved m = 1000 model;
#   B = bin/spark-kpca bench csv-floor: a local session that reads the same CSV with inferSchema and writes it back.
# Each side is a fresh process (JVM start, session, reads, jobs, write), timed by GNU time. Then one more run of
# each with Spark's event log (jobs and stages, deterministic) and one with -verbose:class (classes loaded).
#
#   spark-kpca-examples/bench/fixed-cost.sh WORK [PAIRS]      (PAIRS defaults to 5)
#
# Prints every pair, the medians, their ratio, and the job/stage/class counts; writes them to WORK/fixed-cost.txt.
set -euo pipefail
work="${1:?usage: fixed-cost.sh WORK [PAIRS]}"
pairs="${2:-5}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="$root/bin/spark-kpca"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
csv="$work/data.csv"
if [ ! -s "$csv" ]; then
  # 1,000 rows of 20 columns, a seeded mixture of three clusters, 6 decimals.
  awk 'BEGIN { srand(7); printf "x1"; for (j = 2; j <= 20; j++) printf ",x%d", j; print "";
    for (i = 0; i < 1000; i++) { c = i % 3; for (j = 1; j <= 20; j++) {
      v = c * (j % 4) + (rand() + rand() + rand() - 1.5); printf "%s%.6f", (j > 1 ? "," : ""), v } print "" } }' \
    > "$csv"
fi
if [ ! -d "$work/model" ]; then
  "$cli" fit --input "$csv" --k 5 --landmarks 1000 --seed 1 --model-out "$work/model" > "$work/fit.log" 2>&1
fi
timed() { # label, command...: prints the wall seconds
  local out="$work/run-$1"
  rm -rf "$out"
  /usr/bin/time -f %e -o "$work/time-$1" "${@:2}" "$out" > "$work/log-$1" 2>&1
  rm -rf "$out"
  cat "$work/time-$1"
}
# GNU time runs programs, not shell functions: each side is the launcher with its arguments, --output last.
transform=("$cli" transform --model "$work/model" --input "$csv" --output)
floor=("$cli" bench csv-floor --input "$csv" --output)
a=(); b=()
for i in $(seq 1 "$pairs"); do
  a+=("$(timed transform "${transform[@]}")")
  b+=("$(timed floor "${floor[@]}")")
  echo "pair $i: transform ${a[-1]} s, floor ${b[-1]} s"
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
ma="$(median "${a[@]}")"; mb="$(median "${b[@]}")"
counts() { # label, command...: jobs, stages, tasks from the event log; classes loaded
  local events="$work/events-$1"
  rm -rf "$events" && mkdir -p "$events"
  JAVA_OPTS="${JAVA_OPTS:-} -Dspark.eventLog.enabled=true -Dspark.eventLog.compress=false -Dspark.eventLog.dir=file://$events" \
    timed "$1-events" "${@:2}" > /dev/null
  # Spark 4 writes a directory per application (events_N_* files and an appstatus file); Spark 3 one file.
  local log="$work/events-$1.json"
  find "$events" -type f ! -name 'appstatus*' -print0 | sort -z | xargs -0 cat > "$log"
  local jobs stages
  jobs="$(grep -c '"Event":"SparkListenerJobStart"' "$log" || true)"
  stages="$(grep -c '"Event":"SparkListenerStageCompleted"' "$log" || true)"
  JAVA_OPTS="${JAVA_OPTS:-} -verbose:class" timed "$1-classes" "${@:2}" > /dev/null
  local classes; classes="$(grep -c '\[class,load\]' "$work/log-$1-classes" || true)"
  echo "$1: $jobs jobs, $stages stages, $classes classes loaded"
  grep -o '"Job ID":[0-9]*,[^}]*"spark.job.description":"[^"]*"' "$log" | sed 's/.*"spark.job.description":/  job: /' || true
}
{
  echo "transform median $ma s, floor median $mb s, ratio $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", a / b }') ($pairs pairs)"
  counts transform "${transform[@]}"
  counts floor "${floor[@]}"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$work/fixed-cost.txt"
