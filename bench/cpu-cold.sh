#!/usr/bin/env bash
# Cold decode on the lent 16-core machine: a fresh `exrview bench --no-warmup` (what a user's first folder gets) beside
# a warm one and OpenEXR 3.4 at the same thread count, rounds interleaved; then the same with V8 tiering flags, to see
# what of the cold gap is the JIT. JSON lines: {"cores", "round", "variant", "openexrMs" | "exrview": bench summary}.
#
# Measured 2026-11-26 (H200 machine, 40 files): at first, 16 cores cold 1.00-1.03x OpenEXR against 1.40-1.46x warm;
# lower --interrupt-budget and --always-sparkplug were slower cold, 20 warm-up rounds 1.03-1.11x. The cold extra was
# DWA's fresh buffers and its TypeScript Huffman, fresh first reads, the main thread's interpreted job code and 48
# bands a file. With those fixed (5 rounds): cold 1.50-1.60x, warm 1.58-1.75x, cold over warm 0.89-0.995 of the ratio
# (median 0.91); 8 cores 0.80-1.07 (median 0.98). What is left is fresh plane memory and V8 heap growth per worker.
# At 4079f90 (VARIANTS="cold warm", 4 rounds): cold over warm medians 0.947 at 16 cores (0.89-1.05), 0.878 at 8, 0.883
# at 2. The set's four files have four plane sizes, so a cold run makes 24-48 plane buffers (planeBuffers.made): two
# or three files' worth in rotation for each size. Each bench summary also has the thumbnail pass's overDecode: 0.90-0.97
# cold and 0.93-0.99 warm at 16 cores (1.46-1.56 at 315135c, when the main thread finished every thumbnail).
# At abf8eba (workers hold their next band), VARIANTS="cold warm" CORES="16 8 2" ROUNDS=3: cold over warm 0.90/0.945/
# 1.09 at 16 cores, 0.96/0.98/0.98 at 8, 0.86/0.81/1.01 at 2 (medians 0.945, 0.982, 0.861); cold 1.56-1.63x OpenEXR
# at 16 cores, 1.45-1.70x at 8, 1.29-1.68x at 2.
# At a5646eb, the same command: cold over warm 1.06/0.80/0.81 at 16 cores, 0.93/0.98/0.87 at 8, 0.92/0.72/1.04 at 2
# (medians 0.81, 0.93, 0.92); warm runs alone varied 1427-1708 ms at 2 cores, so one round moves a median much.
# At b9b8163 (plane buffers in size classes, a kept one serving planes down to an eighth of it: a cold run makes 28-40
# buffers at 16 cores, was 48-80 on the 30-file thumbs set): VARIANTS="cold warm" CORES="16 2" ROUNDS=5 on an H100
# host, cold over warm 1.42/1.12/1.05/1.05/1.12 at 16 cores (the warm runs were the slower), 1.10/0.97/0.98/0.91/0.73
# at 2; the same command with CORES="16 8 2" ROUNDS=3 on an H200 host: 0.81/0.86/0.98, 0.84/0.86/0.90, 0.85/0.93/1.09
# (medians 0.86, 0.86, 0.93). What is left of the gap is fresh memory: the first two or three files' planes at every
# core count, and at 16 cores as many as 7-10 files' worth in flight at once.
# At 09f5a7a (descriptor table grown before the workers start; their optimizing compiles on their own threads, see
# host/decode/worker-process.ts), CORES="16 8 2" ROUNDS=3 on an H200 host: cold 1.92/2.02/1.80x OpenEXR and
# warm 1.89/1.95/1.90x at 16 cores, 1.72/1.85/1.68 and 1.68/1.90/1.63 at 8, 1.75/1.50/1.50 and 1.55/1.78/1.49 at 2;
# cold over warm (medians of the ratios) 1.01, 1.03, 0.97. What had looked like fresh memory was mostly a 16-22 ms stall
# of every thread growing the descriptor table mid-decode and the workers' first work waiting for V8's 4 compile threads.
# At 35a23cb, VARIANTS="cold warm" CORES="16 8" ROUNDS=3 on an H200 host: cold 1.65/1.70/1.64x OpenEXR and warm
# 1.83/1.77/1.85x at 16 cores, 1.50/1.59/1.68 and 1.67/1.79/1.67 at 8; cold over warm (medians of the ratios) 0.90 and
# 0.96. Cold runs made 28-36 plane buffers at 16 cores (warm 8-12), with 20-24 thousand minor faults against 4-7.
# At eccbbf5, VARIANTS="cold warm" CORES="16 8" ROUNDS=3 on an H100 host: cold over warm 0.89/0.965/0.943 at 16 cores,
# 0.983/0.882/0.841 at 8 (medians 0.943, 0.882); cold 1.64-1.68x OpenEXR at 16 cores, 1.55-1.69x at 8; cold runs made
# 32 plane buffers at 16 cores and 20-24 at 8, warm runs 0-12.
# At 55b3716 (workers keep their warm-up's compiled code at their first real bands: boxes, names and DWA's arrays in the
# shapes the warm-up saw; the native unpack), VARIANTS="cold warm" CORES="16 8" ROUNDS=5, two H100 hosts: cold over
# warm (medians of the ratios) 0.74 and 0.968 on one (its cold passes spent 700-900 ms more in decompression, summed
# over workers), 0.956 and 0.968 on the other. A/B on one host (16 cores, 4 rounds, medians) against 9d8e661: cold
# 276.7 -> 250.4 ms, warm 260.3 -> 237.3 ms. Cold runs still make 28-36 plane buffers at 16 cores (warm 0-8).
# At 1d08719/3930dcb (the worker warm-up decodes in bands, through a file source, and a tall image of one-line chunks:
# the reader's chunk loop is compiled there, not in the first real bands, and no longer thrown away by them), A/B
# against 899e9cd on one H100 host (4 rounds interleaved, medians): 16 cores cold 217.3 -> 208.3 ms, warm 194.9 ->
# 193.2 (cold over warm 0.897 -> 0.928); 8 cores 0.965 -> 1.004. At 3930dcb, VARIANTS="cold warm" CORES="16 8" ROUNDS=5
# on an H100 host: cold over warm (medians of the per-round ratios) 0.944 at 16 cores (0.89-1.00), 0.96 at 8
# (0.89-0.99); cold 2.09-2.26x OpenEXR at 16 cores. What is left is fresh plane memory: cold runs make 32-36 plane
# buffers at 16 cores (warm 0-8), unpack +80-150 ms and system time +100-200 ms summed over workers; without the
# huge-page advice (variants cold-nohuge, warm-nohuge) the same (0.945 against 0.910, 3 rounds). Hosts also slow down
# mid-run: one round's decompression summed over workers took 4.6 s against 2.7 (the 0.74 above was such a host).
# At 236112c (the ZIP predictor by AVX-512), VARIANTS="cold warm" CORES="16 8" ROUNDS=4 on an H100 host: cold over warm
# 0.979 at 16 cores, 0.958 at 8; at 02b1483 (Huffman tables from the coded symbols only) on another: 0.934 (cold 214.1,
# warm 200.0 ms) and 0.992 (401.1, 397.9 ms); .cpu/run.sh there: 1.48/1.93/1.95/2.34/2.61x OpenEXR at 1/2/4/8/16 cores.
# At 9a2e4df (huge pages only where the guest keeps its free memory, decode/huge-pages.ts: the lent machines have no
# reporting balloon, so they stay advised), SETTLE=4 VARIANTS="cold cold-huge cold-nohuge warm" CORES="16 2" ROUNDS=3
# on an H100 host: 16 cores cold 275-291 ms, cold-huge 250-286, cold-nohuge 273-300, warm 241-252 (OpenEXR 742-876);
# 2 cores cold 1542-1618, cold-huge 1505-1655, cold-nohuge 1386-1703, warm 1396-1654. A C probe there (256 MB first
# touched 3 s after the last free): 0.22-0.28 ms a MB advised, 0.63-0.65 not. On another H100 host, SETTLE=4
# VARIANTS="cold warm" CORES=16 ROUNDS=5: cold 150.6-179.1 ms, warm 149.6-181.9, cold over warm (median of the
# per-round ratios) 1.00.
# At 35b893e, SETTLE=4 VARIANTS="cold warm" CORES="16 8" ROUNDS=4 on an H100 host: cold over warm (medians of the
# per-round ratios) 0.961 at 16 cores (0.92-0.99), 1.089 at 8 (0.87-1.17); cold 2.06-2.51x OpenEXR at 16 cores. Before
# it on another H100 host, 4 rounds of cold, warm and cold with EXRVIEW_BENCH_PREFAULT_PLANES=40 (every plane buffer the
# pass makes, touched before the clock): cold 170.7-244.7 ms, prefaulted 169.4-234.6, warm 154.1-181.5. Prefaulting
# did not move the cold pass at 16 cores, whose workers were 97% busy (EXRVIEW_TRACE): what is left there is the host.
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
