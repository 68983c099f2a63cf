#!/usr/bin/env bash
# The one command run on the H100 machine (device tool, carry [".gpu", "dist"]): bench, then the checks, each in its own process.
# Writes $OUT/h100-bench.json, $OUT/h100-checks.json and their logs. Locally: OUT=/tmp/x bash bench/gpu/h100.sh (after enter.sh's setup).
set -u
[ -f .gpu/enter.sh ] && source .gpu/enter.sh
OUT=${OUT:-/tmp/gpu-bench-out}; mkdir -p "$OUT"
(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pcie.link.gen.current,pcie.link.width.current --format=csv; nproc; node --version) > "$OUT/machine.txt" 2>&1
timeout ${BENCH_TIMEOUT:-400} node dist/gpu-bench/bench.mjs bench --out "$OUT/h100-bench.json" 2> "$OUT/h100-bench.log" | tail -c 300
echo "bench rc=${PIPESTATUS[0]}"
timeout ${CHECKS_TIMEOUT:-150} node dist/gpu-bench/bench.mjs checks --out "$OUT/h100-checks.json" 2> "$OUT/h100-checks.log" | tail -c 300
echo "checks rc=${PIPESTATUS[0]}"
tail -n 3 "$OUT/h100-bench.log" "$OUT/h100-checks.log"
