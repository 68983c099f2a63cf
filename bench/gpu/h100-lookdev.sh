#!/usr/bin/env bash
# The look-development GPU bench on the H100 machine (device tool, carry [".gpu", "dist"]): the 4K tone-map without and
# with a 65^3 LUT (after the view, on the log shaper), the HDR path, and the Environment view's lat-long pass.
# Prepare here first: bash ../shared/tools/gpu-kit.sh && node bench/gpu/build.mjs. Writes $OUT/h100-lookdev.json and its log.
set -u
[ -f .gpu/enter.sh ] && source .gpu/enter.sh
OUT=${OUT:-/tmp/gpu-bench-out}; mkdir -p "$OUT"
(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nproc; node --version) > "$OUT/machine-lookdev.txt" 2>&1
timeout ${BENCH_TIMEOUT:-300} node dist/gpu-bench/bench.mjs lookdev --out "$OUT/h100-lookdev.json" 2> "$OUT/h100-lookdev.log" | tail -c 1500
echo "lookdev rc=${PIPESTATUS[0]}"
tail -n 3 "$OUT/h100-lookdev.log"
