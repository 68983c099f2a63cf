#!/usr/bin/env python3
"""One line per JSON line of bench/cpu-cold.sh: set, cores, round, variant, wall ms and, for exrview, its stages
(read, decompress, unpack, summed over workers), process CPU and minor page faults; then, per set and core count, the
median wall time of each variant and each variant's speed over the warm one's (OpenEXR's time being the same, this is
the ratio the issue's cold clause asks about). Usage: ... | python3 bench/cold-summary.py"""
import json, statistics, sys
from collections import defaultdict

walls = defaultdict(list)
for line in sys.stdin:
    try:
        d = json.loads(line)
    except ValueError:
        print(line.rstrip())
        continue
    if 'host' in d:
        print('host', ' | '.join(f'{k}: {v}' for k, v in d['host'].items()))
        continue
    head = f"{d.get('set', 'all'):6} {d['cores']:>2} cores r{d['round']} {d['variant']:14}"
    key = (d.get('set', 'all'), d['cores'])
    if 'openexrMs' in d:
        print(f"{head} {d['openexrMs']:8.1f} ms")
        walls[key + ('openexr',)].append(d['openexrMs'])
        continue
    e = d['exrview']
    if not e:
        print(f"{head} failed")
        continue
    s, p = e['stages'], e['process']
    walls[key + (d['variant'],)].append(e['decode']['wallMs'])
    print(f"{head} {e['decode']['wallMs']:8.1f} ms  read {s['readMs']:7.1f} decompress {s['decompressMs']:7.1f} unpack {s['unpackMs']:7.1f}"
          f"  cpu {p['userCpuMs']:7.1f}+{p['systemCpuMs']:6.1f}  faults {p['minorPageFaults']}")

print('medians (ms); speed over warm = warm median / median')
for (set_, cores, variant), ms in sorted(walls.items()):
    warm = walls.get((set_, cores, 'warm'))
    over = f"  {statistics.median(warm) / statistics.median(ms):.3f}" if warm and variant != 'openexr' else ''
    print(f"{set_:6} {cores:>2} cores {variant:14} {statistics.median(ms):8.1f} ms  n={len(ms)}{over}")
