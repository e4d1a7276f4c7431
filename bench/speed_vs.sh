#!/bin/sh
# Accounting speed against dp_accounting on this machine, side by side in one
# session (issues 25 and 27; figures in BENCHMARKS.md, "Accounting speed against
# dp_accounting"). One command: bench/speed_vs.sh.
#
# Needs Go, gcc (the c-shared library), farm-bench, Debian's python3-numpy,
# python3-scipy, python3-absl, python3-attr and python3-mpmath (run with
# /usr/bin/python3), and dp_accounting's source: DPA (default /tmp/dpa) holding
# python/dp_accounting, extracted from a clone of google/differential-privacy with
#   git --git-dir=<its git dir> archive HEAD python/dp_accounting | tar -x -C /tmp/dpa
# (DPA_GIT=<its git dir> lets this script extract it). N runs of each (default 10).
#
# 1. in process, Go: composition/pld's benchmarks (sound ε alone; sound and
#    optimistic; MNIST and 10⁶ steps), median [min, max] of N;
# 2. in one Python process: dp_accounting's PLDAccountant against privamp's
#    drop-in PLDAccountant and privamp.dpsgd, interleaved (bench/speed_vs.py);
# 3. whole processes: privamp dpsgd (MNIST) against a python3 process running
#    dp_accounting's PLD and RDP accountants on the same run
#    (bench/dp_accounting_dpsgd.py), N interleaved pairs by farm-bench.
set -eu
cd "$(dirname "$0")/.."
N=${N:-10}
DPA=${DPA:-/tmp/dpa}
PY=${PY:-/usr/bin/python3}
OUT=${OUT:-bin/speed}
mkdir -p "$OUT"
if [ ! -d "$DPA/python/dp_accounting" ]; then
	[ -n "${DPA_GIT:-}" ] || { echo "speed_vs.sh: no $DPA/python/dp_accounting; set DPA or DPA_GIT" >&2; exit 2; }
	mkdir -p "$DPA" && git --git-dir="$DPA_GIT" archive HEAD python/dp_accounting | tar -x -C "$DPA"
fi
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3), commit $(git rev-parse --short HEAD)"
# privamp as `make build` builds it (static, -tags minimal: README, "Set-up")
CGO_ENABLED=0 go build -tags minimal -ldflags "-X main.commit=$(git rev-parse HEAD)" -o "$OUT/privamp" ./cmd/privamp
go build -buildmode=c-shared -o "$OUT/libprivamp.so" ./python/_native
go test -c -o "$OUT/pld.test" ./composition/pld

echo "== 1. in process, Go (composition/pld): wall ms median [min, max] of $N; CPU ms per call (user + sys of the process, which makes $N calls, the first cold, / $N)"
for b in MNISTSound MNIST MillionStepsSound MillionSteps; do
	/usr/bin/time -f "%U %S" -o "$OUT/time.txt" "$OUT/pld.test" -test.run '^$' -test.bench "^Benchmark$b\$" \
		-test.benchtime 1x -test.count "$N" > "$OUT/bench.txt"
	"$PY" -c '
import re, statistics, sys
v = [float(m.group(1)) / 1e6 for m in (re.search(r"\s([\d.]+) ns/op", l) for l in open(sys.argv[2])) if m]
u, s = map(float, open(sys.argv[3]).read().split()[-2:])
print("%-28s wall %8.1f [%.1f, %.1f]   CPU %.1f" % ("Benchmark" + sys.argv[1], statistics.median(v), min(v), max(v),
      (u + s) * 1e3 / len(v)))
' "$b" "$OUT/bench.txt" "$OUT/time.txt"
done

echo "== 2. one Python process: dp_accounting against privamp (ctypes), s"
PYTHONPATH="python:$DPA/python/dp_accounting" PRIVAMP_LIBRARY="$OUT/libprivamp.so" \
	"$PY" bench/speed_vs.py --repeat "$N"

echo "== 3. whole processes: privamp dpsgd (A) against python3 with dp_accounting (B)"
PYTHONPATH="$DPA/python/dp_accounting" farm-bench -n "$N" --timeout 1200 \
	--vs "$PY bench/dp_accounting_dpsgd.py" -- \
	"$OUT/privamp" dpsgd --n 60000 --batch 256 --epochs 60 --noise-multiplier 1.1 --delta 1e-5
