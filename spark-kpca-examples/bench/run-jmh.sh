#!/usr/bin/env bash
# Runs the JMH microbenchmarks of the hot path from the examples jar (build it first:
#   mvn -B -q -pl spark-kpca-examples -am package -DskipTests).
#   spark-kpca-examples/bench/run-jmh.sh                      # all: ExpBenchmark, KernelBlockBenchmark, ReadoutBenchmark, StatisticsBenchmark
#   spark-kpca-examples/bench/run-jmh.sh ExpBenchmark         # one class (any JMH regex and options work)
#   OPENBLAS_NUM_THREADS=1 spark-kpca-examples/bench/run-jmh.sh StatisticsBenchmark -p m=1000
# Short runs by default: -wi 2 -i 3 -f 1 unless the arguments set -wi, -i or -f themselves.
set -euo pipefail
root="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target="$root/spark-kpca-examples/target"
jar="$(ls -t "$target"/spark-kpca-examples_*.jar 2>/dev/null | grep -v -e '-sources\.jar$' -e '-javadoc\.jar$' -e '-tests\.jar$' | head -n 1 || true)"
if [ -z "$jar" ] || [ ! -s "$target/classpath.txt" ]; then
  echo "run-jmh: build the examples jar first: mvn -B -q -pl spark-kpca-examples -am package -DskipTests" >&2
  exit 1
fi
defaults=()
for option in -wi:2 -i:3 -f:1; do
  name="${option%%:*}"
  given=no
  for arg in "$@"; do
    if [ "$arg" = "$name" ]; then given=yes; fi
  done
  if [ "$given" = no ]; then defaults+=("$name" "${option#*:}"); fi
done
exec java -cp "$jar:$(cat "$target/classpath.txt")" org.openjdk.jmh.Main "${defaults[@]}" "$@"
