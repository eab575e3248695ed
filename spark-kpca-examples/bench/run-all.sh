#!/usr/bin/env bash
# Reproduces the measurements of spark-kpca-examples/bench/README.md, from the repository root:
#   spark-kpca-examples/bench/run-all.sh [OUT_DIR] [STEP...]
# STEP is any of: efficiency threads grid mnist scale jmh (default: all, in that order; about 60 minutes on
# 2 cores), or large-m (not in the default: the m-sweep to 16,000 against scikit-learn, about 75 minutes and
# 24 GB of memory; docs/results/large-m/sweep-16000/run.sh).
# Needs: Java 17, Maven, native OpenBLAS (apt-get install libopenblas0-pthread), MNIST (bin/fetch-mnist),
# for the comparisons Debian's scikit-learn (apt-get install python3-sklearn python3-numpy; PYTHON selects
# the interpreter, default /usr/bin/python3 when present), and GNU time (/usr/bin/time, package "time") for the scale runs.
# Check `uptime` first: the numbers are only meaningful on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-bench-results}"
shift || true
steps="${*:-efficiency threads grid mnist scale jmh}"
# Debian's python3-sklearn belongs to the system interpreter, which another python3 on PATH may hide.
default_python=python3
[ -x /usr/bin/python3 ] && default_python=/usr/bin/python3
python="${PYTHON:-$default_python}"
mkdir -p "$out"
kpca=bin/spark-kpca
[ -s spark-kpca-examples/target/classpath.txt ] || mvn -B -q -pl spark-kpca-examples -am package -DskipTests

log() { echo "== $(date '+%H:%M:%S') load: $(cut -d' ' -f1-3 /proc/loadavg) :: $*" | tee -a "$out/load.log"; }

for step in $steps; do
  case "$step" in
  efficiency)
    # The two efficiency cases, best of three fits each.
    log "efficiency: synthetic n=1e6, d=50, m=1000, k=20"
    OPENBLAS_NUM_THREADS=1 JAVA_OPTS=-Xmx8g $kpca bench --input synthetic --n 1000000 --d 50 --m 1000 --k 20 \
      --repeat 3 --master 'local[2]' --out "$out/efficiency-synthetic"
    log "efficiency: MNIST train, m=2000, k=50"
    OPENBLAS_NUM_THREADS=1 JAVA_OPTS=-Xmx12g $kpca bench --input mnist:train --m 2000 --k 50 --gamma 1e-7 \
      --repeat 3 --master 'local[2]' --out "$out/efficiency-mnist"
    ;;
  threads)
    # OpenBLAS threads vs Spark task slots, on the issue's synthetic case.
    log "threads: OPENBLAS_NUM_THREADS=1, local[2]"
    OPENBLAS_NUM_THREADS=1 JAVA_OPTS=-Xmx8g $kpca bench --input synthetic --n 1000000 --d 50 --m 1000 --k 20 \
      --repeat 2 --master 'local[2]' --out "$out/threads-1x2" --no-plots
    log "threads: OpenBLAS one thread per core, local[2]"
    OPENBLAS_NUM_THREADS="$(nproc)" JAVA_OPTS=-Xmx8g $kpca bench --input synthetic --n 1000000 --d 50 --m 1000 --k 20 \
      --repeat 2 --master 'local[2]' --out "$out/threads-2x2" --no-plots
    log "threads: OpenBLAS one thread per core, local[1]"
    OPENBLAS_NUM_THREADS="$(nproc)" JAVA_OPTS=-Xmx8g $kpca bench --input synthetic --n 1000000 --d 50 --m 1000 --k 20 \
      --repeat 2 --master 'local[1]' --out "$out/threads-2x1" --no-plots
    ;;
  grid)
    log "grid: n x m on synthetic d=50"
    OPENBLAS_NUM_THREADS=1 JAVA_OPTS=-Xmx8g $kpca bench --input synthetic --n 100000,1000000 --d 50 --m 500,1000 \
      --k 20 --master 'local[2]' --out "$out/grid"
    ;;
  mnist)
    log "mnist: vs scikit-learn and Spark ML PCA"
    OPENBLAS_NUM_THREADS=1 JAVA_OPTS=-Xmx12g $kpca bench --input mnist:train --m 2000 --k 50 --gamma 1e-7 \
      --repeat 2 --compare sklearn,spark-pca --python "$python" --master 'local[2]' --out "$out/mnist"
    ;;
  scale)
    # n = 1, 2 and 5 million in one JVM whose heap is capped at 3 GB, the input cached on disk only (the
    # heap holds no rows) in 40 partitions (blocks of tens of MB, as Spark's input splits would make them,
    # rather than one block per core); bench resets the resident-set peak between the grid
    # points and charts time and memory against n; GNU time reports the process's peak. Then
    # scikit-learn's pipeline at the largest n, under an 8 GB address-space cap.
    log "scale: n = 1e6, 2e6, 5e6"
    mkdir -p "$out/scale"
    OPENBLAS_NUM_THREADS=1 JAVA_OPTS=-Xmx3g /usr/bin/time -v -o "$out/scale/time-v.txt" $kpca bench \
      --input synthetic --n 1000000,2000000,5000000 --d 50 --m 2000 --k 20 --cache disk --partitions 40 \
      --no-transform --master 'local[2]' --out "$out/scale"
    grep -E "Maximum resident|Elapsed" "$out/scale/time-v.txt"
    log "scale: scikit-learn at n=5000000 under an 8 GB address-space cap"
    /usr/bin/time -v -o "$out/sklearn-5m-time-v.txt" "$python" spark-kpca-examples/bench/sklearn_nystroem.py \
      --input synthetic:n=5000000,d=50,seed=1 --m 2000 --k 20 --gamma 0.0125 --max-memory 8G \
      --json-out "$out/sklearn-5m.json" || true
    ;;
  jmh)
    log "jmh (OPENBLAS_NUM_THREADS=1: per-core rates)"
    OPENBLAS_NUM_THREADS=1 spark-kpca-examples/bench/run-jmh.sh -rf csv -rff "$out/jmh.csv" \
      'ExpBenchmark|KernelBlockBenchmark|StatisticsBenchmark' | tee "$out/jmh.txt"
    ;;
  large-m)
    log "large-m: MNIST m = 2000 ... 16,000 vs scikit-learn"
    PYTHON="$python" docs/results/large-m/sweep-16000/run.sh "$out/large-m"
    ;;
  *) echo "unknown step $step (efficiency threads grid mnist scale jmh large-m)" >&2; exit 2 ;;
  esac
done
log "done"
