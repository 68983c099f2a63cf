#!/usr/bin/env bash
# Makes the 23-channel 4K render of the issue "From click to pixels" (RGBA + six AOV layers + Z, half, ZIP, ~30 MB)
# from make-bench-set.sh's folder with oiiotool: real pictures in RGBA, diffuse and specular; smooth AOVs elsewhere.
# Usage: bench/make-multilayer.sh BENCH_SET_DIR OUT.exr
set -euo pipefail
set_dir=${1:?usage: make-multilayer.sh BENCH_SET_DIR OUT.exr}; out=${2:?usage: make-multilayer.sh BENCH_SET_DIR OUT.exr}
command -v oiiotool >/dev/null || { echo "oiiotool is missing: apt-get install openimageio-tools" >&2; exit 1; }
base="$set_dir/shot_19_zip.exr"
size=$(oiiotool --info -v "$base" | sed -nE 's/.* ([0-9]+) x ([0-9]+), .*/\1x\2/p' | head -1)
oiiotool "$base" --ch R,G,B,A \
  "$set_dir/shot_17_zip.exr" --ch R,G,B --chnames diffuse.R,diffuse.G,diffuse.B --chappend \
  "$base" --ch R,G,B --mulc 0.25 --chnames specular.R,specular.G,specular.B --chappend \
  --pattern constant:color=0,0,0 "$size" 3 --chnames emission.R,emission.G,emission.B --chappend \
  --pattern fill:topleft=0,0,1:topright=1,0,0:bottomleft=0,1,0:bottomright=0.5,0.5,0.5 "$size" 3 --chnames normal.X,normal.Y,normal.Z --chappend \
  --pattern checker:width=64:height=64:color1=0.18,0.18,0.18:color2=0.5,0.4,0.3 "$size" 3 --chnames albedo.R,albedo.G,albedo.B --chappend \
  --pattern fill:left=0,0,0:right=2,1,0 "$size" 3 --chnames motion.X,motion.Y,motion.Z --chappend \
  --pattern fill:top=1:bottom=1000 "$size" 1 --chnames Z --chappend \
  -d half --compression zip -o "$out"
echo "$out: $(oiiotool --info "$out" | head -1)"
