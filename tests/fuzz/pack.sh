# SPDX-License-Identifier: GPL-2.0-or-later
# pack.sh - sourced by make-vhdx-seeds and make-vdisk-seeds: an image
# file packed as fuzz-vhdx.c and fuzz-vdisk.c read their input (the
# file's size, a flags byte, then its non-zero runs as chunks).

# pack FILE SEED [FLAGS]: the non-zero runs of FILE as chunks
pack() {
	python3 - "$@" <<'PY'
import struct, sys
path, out = sys.argv[1], sys.argv[2]
flags = int(sys.argv[3]) if len(sys.argv) > 3 else 0
data = open(path, 'rb').read()
chunks, i, n = [], 0, len(data)
while i < n:
    if not data[i]:
        i += 1
        continue
    j = i
    # a run ends at 16 zero bytes in a row, or at 65535 bytes
    while j < n and j - i < 65535 and any(data[j:j + 16]):
        j += 16
    j = min(j, n, i + 65535)
    chunks.append((i, data[i:j]))
    i = j
with open(out, 'wb') as f:
    f.write(struct.pack('<IB', len(data), flags))
    for off, b in chunks:
        f.write(struct.pack('<IH', off, len(b)) + b)
PY
}
