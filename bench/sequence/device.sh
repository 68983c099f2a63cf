#!/usr/bin/env bash
# Sequence playback on the lent 16-core GPU machine: 48 frames of 3840x2160 half RGBA, ZIP then PIZ, each written there
# by the project's writer (every core), then played cold through the host pipeline up to the upload buffers (--upload
# copy), then again through Dawn into the renderer's frame slots on the GPU (--upload dawn). JSON lines on stdout, one
# per run, each the bench's own summary; logs and the JSON files in $OUT.
#
# Prepare here, from the repository root (the device has no Node and no node_modules):
#   npm run build                            # dist/decode-worker.mjs (the pool's workers) and dist/native/ (the kernels)
#   node bench/sequence/build.mjs            # dist/sequence-bench/bench.mjs, Node alone runs it (webgpu stays external)
#   ../shared/tools/gpu-kit.sh               # .gpu/: Node, the Vulkan loader, the webgpu package trimmed to linux-x64
# Then with the device tool: carry [".gpu", "dist"] (about 55 MB), command `bash bench/sequence/device.sh` (about 5 min).
# Here (2 cores, SwiftShader): SIZE=640x360 bash bench/sequence/device.sh
set -u
cd "$(dirname "$0")/../.."
[ -f .gpu/enter.sh ] && source .gpu/enter.sh
[ -x /tmp/n/node ] && export PATH=/tmp/n:$PATH
OUT=${OUT:-/tmp/seq-bench-out}; mkdir -p "$OUT"
SIZE=${SIZE:-3840x2160}; FRAMES=${FRAMES:-48}
bench=dist/sequence-bench/bench.mjs
[ -f "$bench" ] || { echo "missing $bench: run node bench/sequence/build.mjs first and carry dist/sequence-bench"; exit 1; }
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && [ -f /usr/lib/chromium/vk_swiftshader_icd.json ]; then
  export VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json LD_LIBRARY_PATH=/usr/lib/chromium${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
(command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv; nproc; node --version; free -g | head -2) > "$OUT/machine.txt" 2>&1
for c in zip piz; do
  dir=/tmp/exrview-seq-$SIZE-$c-$FRAMES
  for up in copy dawn; do
    name="seq-$SIZE-$c-$up"
    timeout "${RUN_TIMEOUT:-240}" node "$bench" --size "$SIZE" --compression "$c" --frames "$FRAMES" --upload "$up" --dir "$dir" ${EXTRA_ARGS:-} \
      > "$OUT/$name.out" 2> "$OUT/$name.log"
    rc=$?
    line=$(tail -n 1 "$OUT/$name.out")
    if [ $rc -eq 0 ] && [ -n "$line" ]; then echo "$line" > "$OUT/$name.json"; echo "{\"run\":\"$name\",\"result\":$line}";
    else echo "{\"run\":\"$name\",\"rc\":$rc,\"error\":$(tail -n 3 "$OUT/$name.log" | node -e 'process.stdout.write(JSON.stringify(require("fs").readFileSync(0,"utf8")))')}"; fi
  done
done
# the disk's own cold read rate over each sequence, 16 files at a time: the ceiling a cold loop 1 plays under
for c in zip piz; do
  dir=/tmp/exrview-seq-$SIZE-$c-$FRAMES
  [ -d "$dir" ] || continue
  sync; for f in "$dir"/*.exr; do dd if="$f" iflag=nocache count=0 status=none; done
  t0=$(date +%s.%N); ls "$dir"/*.exr | xargs -P 16 -n 1 cat > /dev/null; t1=$(date +%s.%N)
  bytes=$(cat "$dir"/*.exr | wc -c)
  node -e 'const [c, b, t0, t1] = process.argv.slice(1); const s = t1 - t0; console.log(JSON.stringify({ disk: c, mb: Math.round(b / 2 ** 20), coldReadMs: Math.round(s * 1000), mbPerSecond: Math.round(b / 2 ** 20 / s) }))' "$c" "$bytes" "$t0" "$t1" | tee "$OUT/disk-$c.txt"
done
# the last line: the figures to post, one entry per run
node -e '
const fs = require("fs"); const dir = process.argv[1];
const runs = fs.readdirSync(dir).filter((f) => f.startsWith("seq-") && f.endsWith(".json")).sort().map((f) => {
  const d = JSON.parse(fs.readFileSync(dir + "/" + f, "utf8")); const r = d.realtime, t = d.throughput;
  return { run: f.slice(0, -5), cores: d.machine.cores, nativeKernels: d.nativeKernels, upload: d.upload.kind, adapter: d.upload.adapter ?? null,
    loops: r.loops.map((l) => ({ loop: l.loop, achievedFps: l.achievedFps, shown: l.shown, dropped: l.dropped, fromRamCache: l.fromRamCache, medianMs: l.medianMsPerFrame })),
    throughputFps: t && t.fps, throughputCpuMsPerFrame: t && t.cpuMsPerFrame, throughputMedianMs: t && t.medianMsPerFrame };
});
console.log(JSON.stringify({ bench: "sequence-playback-device", runs }));' "$OUT"
