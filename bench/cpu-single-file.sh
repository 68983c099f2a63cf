#!/usr/bin/env bash
# One 4K ZIP file alone (Carrots, shot_17_zip of make-bench-set.sh) at 2 and 16 cores: OpenEXR 3.4's exr_decode_ref
# against `exrview bench` (every worker on the file's bands) and the preview path (bench/preview-path.mjs: the host's
# decodeImage, cold RAM cache). For the lent 16-core machine after ../shared/tools/cpu-kit.sh: carry .cpu and dist, then
#   bash .cpu/run.sh; bash bench/cpu-single-file.sh
# Here: bash bench/cpu-single-file.sh FILE.exr [OPENEXR_DIR]. JSON lines, one per core count and tool.
set -u
cd "$(dirname "$0")/.."
file=${1:-.cpu/set/shot_17_zip.exr}
ref=${2:-$([ -d .cpu/openexr ] && echo .cpu/openexr || echo ../shared/tools/openexr-3.4)}
[ -x /tmp/n/node ] && export PATH=/tmp/n:$PATH
dir=$(mktemp -d); ln "$file" "$dir/" 2>/dev/null || cp "$file" "$dir/"
cat "$file" > /dev/null
for c in 2 16; do
  [ "$c" -gt "$(nproc)" ] && continue
  cpus="0-$((c-1))"
  for r in 1 2 3; do
    o=$(taskset -c "$cpus" "$ref/exr_decode_ref" "$c" "$file" | tail -1 | sed -E 's/total ([0-9.]+) ms.*/\1/')
    e=$(taskset -c "$cpus" node bin/exrview.mjs bench "$dir" --json 2>/dev/null | tail -1)
    echo "{\"cores\":$c,\"run\":$r,\"file\":\"$(basename "$file")\",\"openexrMs\":$o,\"exrview\":$e}"
  done
  p=$(EXR_REF_DIR="$ref" taskset -c "$cpus" node bench/preview-path.mjs "$file" --runs 3 2>/dev/null | tail -1)
  echo "{\"cores\":$c,\"previewPath\":$p}"
done
rm -rf "$dir"
