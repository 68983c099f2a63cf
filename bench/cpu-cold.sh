#!/usr/bin/env bash
# Cold decode on the lent 16-core machine: a fresh `exrview bench --no-warmup` (what a user's first folder gets) beside
# a warm one and OpenEXR 3.4 at the same thread count, rounds interleaved; then the same with V8 tiering flags, to see
# what of the cold gap is the JIT. JSON lines: {"cores", "round", "variant", "openexrMs" | "exrview": bench summary}.
# Figures from past runs: bench/results/cpu-16-cores.md.
#
# Prepare here: ../shared/tools/cpu-kit.sh DIR (makes .cpu/), npm run build. With the device tool, carry
# [".cpu", "dist/cli.mjs", "dist/decode-worker.mjs", "dist/native"] (.cpu with all of dist is over the 64 MiB carried),
# command `bash bench/cpu-cold.sh` (CORES="16 2" ROUNDS=3 SETS=all by default; VARIANTS names the runs, see below).
# SETTLE=S waits S seconds before each run: a guest that reports free memory to its host does so a couple of seconds
# after a free, so without a pause a run finds the previous one's memory still backed (decode/huge-pages.ts).
set -u
cd "$(dirname "$0")/.."
mkdir -p /tmp/n && xz -dc .cpu/node.xz > /tmp/n/node && chmod +x /tmp/n/node
export PATH=/tmp/n:$PATH
D=/tmp/set40; mkdir -p $D
for i in $(seq 1 10); do for f in .cpu/set/*.exr; do cp "$f" "$D/$(basename "$f" .exr)_$i.exr"; done; done
cat $D/*.exr > /dev/null
# the host's facts: what differs between lent machines (kernel, transparent huge pages, CPU)
printf '{"host":{"kernel":"%s","thp":"%s","defrag":"%s","cpu":"%s"}}\n' "$(uname -r)" "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" \
  "$(cat /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null)" "$(lscpu | sed -n 's/^Model name: *//p')"
# SETS="all dwaa piz ..." also times each compression's 10 files alone (a folder of links)
for k in ${SETS:-all}; do [ "$k" = all ] || { mkdir -p /tmp/set40-$k; ln -sf $D/*_${k}_*.exr /tmp/set40-$k/; }; done
CORES=${CORES:-16 2}; ROUNDS=${ROUNDS:-3}
VARIANTS=${VARIANTS:-cold warm cold-budget8k cold-sparkplug cold-rounds20}
run_variant() { # $1 variant, $2 cores, $3 set
  local pin="taskset -c 0-$(($2-1))" D=$D
  [ "$3" = all ] || D=/tmp/set40-$3
  case $1 in
    cold) $pin node bin/exrview.mjs bench $D --json --no-warmup ;;
    warm) $pin node bin/exrview.mjs bench $D --json ;;
    cold-budget8k) $pin node --interrupt-budget=8192 bin/exrview.mjs bench $D --json --no-warmup ;;
    cold-sparkplug) $pin node --always-sparkplug bin/exrview.mjs bench $D --json --no-warmup ;;
    cold-rounds20) EXRVIEW_WARM_UP_ROUNDS=20 $pin node bin/exrview.mjs bench $D --json --no-warmup ;;
    cold-planes) EXRVIEW_BENCH_PREFAULT_PLANES=8 $pin node bin/exrview.mjs bench $D --json --no-warmup ;;
    cold-huge) EXRVIEW_HUGE_PAGES=1 $pin node bin/exrview.mjs bench $D --json --no-warmup ;;
    cold-nohuge) EXRVIEW_HUGE_PAGES=0 $pin node bin/exrview.mjs bench $D --json --no-warmup ;;
    warm-nohuge) EXRVIEW_HUGE_PAGES=0 $pin node bin/exrview.mjs bench $D --json ;;
  esac
}
for set in ${SETS:-all}; do for c in $CORES; do for r in $(seq 1 "$ROUNDS"); do
  files=$D/*.exr; [ "$set" = all ] || files=/tmp/set40-$set/*.exr
  o=$(taskset -c 0-$((c-1)) .cpu/openexr/exr_decode_ref $c $files | tail -1 | sed -E 's/total ([0-9.]+) ms.*/\1/')
  echo "{\"set\":\"$set\",\"cores\":$c,\"round\":$r,\"variant\":\"openexr\",\"openexrMs\":$o}"
  for v in $VARIANTS; do
    sleep "${SETTLE:-0}"
    e=$(run_variant "$v" "$c" "$set" 2>/dev/null | tail -1)
    echo "{\"set\":\"$set\",\"cores\":$c,\"round\":$r,\"variant\":\"$v\",\"exrview\":${e:-null}}"
  done
done; done; done
