#!/usr/bin/env bash
# SIGKILL of the stream's JVM during a micro-batch, then a restart with the same checkpoint.
# Usage: sigkill.sh WORKDIR, WORKDIR/in holding CSV files (4 files of 200 rows: a,b,c,label)
cli="$(cd "$(dirname "$0")/../../.." && pwd)/bin/spark-kpca"
cd "${1:?work directory with in/ (CSV files)}"
args=(stream --input in --label-col label --model-out model --checkpoint ckpt --k 2 --landmarks 20 --seed 3
  --available-now --max-files-per-trigger 1 --master local[2] --progress-interval 0)
JAVA_OPTS= "$cli" "${args[@]}" > first.log 2>&1 &
while [ ! -d model/version-000000000001 ]; do sleep 0.5; done
sleep 2   # batch 2 is running
pid=$(pgrep -f "spark-kpca-examples.*stream --input in --label-col label --model-out model --checkpoint ckpt" | head -1)
echo "killing $pid with SIGKILL; versions: $(ls model | tr '\n' ' ')"
kill -9 "$pid"
wait || true
echo "after the kill: $(ls -a model | tr '\n' ' ')"
"$cli" "${args[@]}" --summary-out stream.json > second.log 2>&1
grep "^batch" first.log second.log
"$cli" fit --input in --label-col label --k 2 --landmarks-from model/version-000000000003 --model-out fitted \
  --summary-out fit.json --master local[2] --progress-interval 0 > fit.log 2>&1
python3 -c "
import json; s=json.load(open('stream.json')); f=json.load(open('fit.json'))
print('n', s['n'], f['n']); print('stream', s['eigenvalues']); print('fit   ', f['eigenvalues'])"
