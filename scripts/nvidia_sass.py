#!/usr/bin/env python3
"""The machine code of the pipelines in an NVIDIA driver's Vulkan pipeline cache.

usage: python3 scripts/nvidia_sass.py CACHE OUT_DIR [--arch SM90]

CACHE is what `vkspd --pipeline-cache CACHE` (or vkGetPipelineCacheData) wrote on an NVIDIA GPU.
After the Vulkan header the driver keeps zstd frames; each holds 'NVuc' containers, one per
compiled shader, whose section table (from byte 32 of the container, 32 bytes an entry: type,
size, offset, each a little-endian uint32) has the machine code as type 1 and the register count
as type 3. For each container this writes OUT_DIR/pipeline-N.code (the code section) and, where
`nvdisasm` (CUDA toolkit) is on the PATH, OUT_DIR/pipeline-N.sass (`nvdisasm -b ARCH`; it rejects
the container itself), and prints one line per pipeline: its registers and instructions, and
with the disassembly its barriers (BAR), convergence regions (BSSY), warp syncs (WARPSYNC) and
most frequent opcodes. Needs the `zstd` command. The layout is the driver's own and undocumented:
read off driver 580 on an H100/H200 (docs/PERFORMANCE.md, "FP32 for Min and Max on NVIDIA").
Exit code 0; 1 with a message when CACHE is no NVIDIA pipeline cache or holds no container, or
OUT_DIR is not a folder; 2 for bad arguments.
"""
import argparse
import collections
import os
import re
import shutil
import struct
import subprocess
import sys

ZSTD_MAGIC = bytes.fromhex("28b52ffd")
NVIDIA = 0x10DE


def zstd_frame_length(data, at):
    """The length of the zstd frame that starts at `at` (its blocks walked), or 0 if it is cut."""
    p = at + 4
    if p >= len(data):
        return 0
    fhd = data[p]
    p += 1
    single = (fhd >> 5) & 1
    fcs = [1 if single else 0, 2, 4, 8][fhd >> 6]
    p += (0 if single else 1) + [0, 1, 2, 4][fhd & 3] + fcs
    while True:
        if p + 3 > len(data):
            return 0
        header = data[p] | data[p + 1] << 8 | data[p + 2] << 16
        p += 3
        kind, size = (header >> 1) & 3, header >> 3
        p += 1 if kind == 1 else size  # an RLE block stores one byte
        if p > len(data):
            return 0
        if header & 1:
            break
    return p + (4 if fhd & 4 else 0) - at


def frames(data):
    """The decompressed zstd frames of a pipeline cache's data, in order."""
    out = []
    at = data.find(ZSTD_MAGIC, 32)
    while at >= 0:
        n = zstd_frame_length(data, at)
        if n:
            r = subprocess.run(["zstd", "-d", "-c", "-q"], input=data[at:at + n], capture_output=True)
            if r.returncode == 0:
                out.append(r.stdout)
            at += n
        else:
            at += 4
        at = data.find(ZSTD_MAGIC, at)
    return out


def containers(blob):
    """(registers, code) of each 'NVuc' container in a decompressed frame."""
    found = []
    at = blob.find(b"NVuc")
    while at >= 0:
        u = blob[at:]
        registers, code = None, None
        if len(u) >= 32:
            count = struct.unpack_from("<H", u, 8)[0]
            for s in range(count):
                if 32 + 32 * s + 12 > len(u):
                    break
                kind, size, offset = struct.unpack_from("<III", u, 32 + 32 * s)
                if offset + size > len(u):
                    continue
                if kind == 3 and size >= 4:
                    registers = struct.unpack_from("<I", u, offset)[0]
                if kind == 1:
                    code = u[offset:offset + size]
        if code:
            found.append((registers, code))
        at = blob.find(b"NVuc", at + 4)
    return found


def main(argv):
    parser = argparse.ArgumentParser(prog="nvidia_sass.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("cache", help="a pipeline cache an NVIDIA driver wrote")
    parser.add_argument("out_dir", help="the folder for pipeline-N.code and .sass")
    parser.add_argument("--arch", default="SM90", help="nvdisasm's -b architecture (default SM90)")
    args = parser.parse_args(argv[1:])
    cache, out_dir, arch = args.cache, args.out_dir, args.arch
    with open(cache, "rb") as f:
        data = f.read()
    if len(data) < 32 or struct.unpack_from("<II", data, 0) != (32, 1):
        print(f"nvidia_sass: {cache}: not a Vulkan pipeline cache", file=sys.stderr)
        return 1
    vendor = struct.unpack_from("<I", data, 8)[0]
    if vendor != NVIDIA:
        print(f"nvidia_sass: {cache}: made by vendor 0x{vendor:04X}, not NVIDIA", file=sys.stderr)
        return 1
    if not shutil.which("zstd"):
        print("nvidia_sass: needs the zstd command (Debian and Ubuntu: the zstd package)", file=sys.stderr)
        return 1
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        print(f"nvidia_sass: {out_dir}: not a folder", file=sys.stderr)
        return 1
    os.makedirs(out_dir, exist_ok=True)
    nvdisasm = shutil.which("nvdisasm")
    n = 0
    for blob in frames(data):
        for registers, code in containers(blob):
            base = os.path.join(out_dir, f"pipeline-{n}")
            with open(base + ".code", "wb") as f:
                f.write(code)
            line = f"pipeline-{n}: {registers} registers, {len(code) // 16} instructions"
            if nvdisasm:
                r = subprocess.run([nvdisasm, "-b", arch, base + ".code"], capture_output=True, text=True)
                with open(base + ".sass", "w") as f:
                    f.write(r.stdout)
                ops = collections.Counter()
                for m in re.finditer(r"^\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", r.stdout, re.M):
                    ops[m.group(1)] += 1
                # What tracked the registers of the halo modules (docs/PERFORMANCE.md, the footprint
                # offers): barriers, and the convergence regions and warp syncs the compiler adds
                # around control flow it cannot prove the same in every lane.
                line += f", {ops['BAR']} barriers, {ops['BSSY']} convergence regions, {ops['WARPSYNC']} warp syncs"
                line += "; " + ", ".join(f"{op} {k}" for op, k in ops.most_common(8))
            print(line)
            n += 1
    if n == 0:
        print(f"nvidia_sass: {cache}: no machine code found (an empty cache, or another layout)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
