#!/usr/bin/env python3
"""ctest scripts.nvidia_sass: scripts/nvidia_sass.py on a pipeline cache laid out as the NVIDIA
driver's (a Vulkan header, a header of the driver's own, zstd frames of 'NVuc' containers), made
here with the zstd command: every container's code section comes out byte for byte with its
register count, with an nvdisasm stand-in on the PATH the line also counts the listing's barriers,
convergence regions and warp syncs, and a cache of another vendor or no cache at all is refused. Exit 77 (skipped)
where zstd is not installed."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

script = sys.argv[1]
if not shutil.which("zstd"):
    print("zstd is not installed: skipped")
    sys.exit(77)


def container(registers, code):
    # 'NVuc', version, 3 sections (a type the script skips among them), then the table from byte 32.
    table_at, data_at = 32, 32 + 3 * 32
    head = b"NVuc" + struct.pack("<IH", 1, 3)
    head += b"\0" * (table_at - len(head))
    entries = [(3, 4, data_at), (45, 0, 0), (1, len(code), data_at + 16)]
    table = b"".join(struct.pack("<III", *e) + b"\0" * 20 for e in entries)
    data = struct.pack("<I", registers) + b"\0" * 12 + code
    return head + table + data


def zstd(data):
    return subprocess.run(["zstd", "-c", "-q", "-19"], input=data, capture_output=True, check=True).stdout


codes = [bytes(range(256)) * 8, bytes([0x18, 0x79] + [0] * 14) * 40, os.urandom(4096)]
# One frame with two shaders (and bytes between them), then a frame with the third.
frame1 = zstd(b"NVDANVVM" + b"\x07" * 100 + container(48, codes[0]) + b"\x01" * 33 + container(64, codes[1]))
frame2 = zstd(container(73, codes[2]))
header = struct.pack("<IIII", 32, 1, 0x10DE, 0x2335) + bytes(range(16))
cache = header + struct.pack("<I", 1) + b"\xab" * 64 + frame1 + b"\0" * 8 + frame2

failures = []
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "cache.bin")
    with open(path, "wb") as f:
        f.write(cache)
    out = os.path.join(tmp, "out")
    r = subprocess.run([sys.executable, script, path, out], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"exit {r.returncode}: {r.stderr}")
    lines = r.stdout.splitlines()
    for n, (registers, code) in enumerate(zip((48, 64, 73), codes)):
        name = os.path.join(out, f"pipeline-{n}.code")
        if not os.path.exists(name) or open(name, "rb").read() != code:
            failures.append(f"pipeline-{n}.code is not the container's code section")
        want = f"pipeline-{n}: {registers} registers, {len(code) // 16} instructions"
        if n >= len(lines) or not lines[n].startswith(want):
            failures.append(f"expected a line starting {want!r}, got {lines}")
    if os.path.exists(os.path.join(out, "pipeline-3.code")):
        failures.append("a fourth pipeline where the cache holds three")

    # With nvdisasm on the PATH (a stand-in printing a fixed listing), each line also counts the
    # listing's barriers, convergence regions and warp syncs, and each pipeline gets its .sass.
    tools = os.path.join(tmp, "bin")
    os.mkdir(tools)
    listing = ("        /*0000*/                   BSSY B0, `(.L_x_1) ;\n"
               "        /*0008*/                   BSSY B1, `(.L_x_3) ;\n"
               "        /*000c*/                   BSSY B2, `(.L_x_4) ;\n"
               "        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
               "        /*0020*/              @!P0 BRA `(.L_x_2) ;\n"
               "        /*0030*/                   WARPSYNC 0xffffffff ;\n"
               "        /*0040*/                   BSYNC B0 ;\n"
               "        /*0050*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
               "        /*0060*/                   EXIT ;\n")
    with open(os.path.join(tools, "nvdisasm"), "w") as f:
        f.write("#!/bin/sh\nprintf '%s' '" + listing.replace("'", "'\\''") + "'\n")
    os.chmod(os.path.join(tools, "nvdisasm"), 0o755)
    env = dict(os.environ, PATH=tools + os.pathsep + os.environ.get("PATH", ""))
    out2 = os.path.join(tmp, "out2")
    r = subprocess.run([sys.executable, script, path, out2], capture_output=True, text=True, env=env)
    want = "pipeline-0: 48 registers, 128 instructions, 2 barriers, 3 convergence regions, 1 warp syncs; BSSY 3, BAR 2,"
    if r.returncode != 0 or not r.stdout.startswith(want):
        failures.append(f"with nvdisasm: exit {r.returncode}, expected a line starting {want!r}, got {r.stdout!r}")
    if not os.path.exists(os.path.join(out2, "pipeline-2.sass")):
        failures.append("with nvdisasm: no pipeline-2.sass")

    other = os.path.join(tmp, "other.bin")
    with open(other, "wb") as f:
        f.write(struct.pack("<IIII", 32, 1, 0x1002, 1) + cache[16:])
    r = subprocess.run([sys.executable, script, other, out], capture_output=True, text=True)
    if r.returncode != 1 or "not NVIDIA" not in r.stderr:
        failures.append(f"another vendor's cache: exit {r.returncode}, {r.stderr!r}")
    text = os.path.join(tmp, "notes.txt")
    with open(text, "w") as f:
        f.write("not a pipeline cache at all, but long enough to hold a header\n")
    r = subprocess.run([sys.executable, script, text, out], capture_output=True, text=True)
    if r.returncode != 1 or "not a Vulkan pipeline cache" not in r.stderr:
        failures.append(f"not a cache: exit {r.returncode}, {r.stderr!r}")

for f in failures:
    print("FAILED:", f)
print("scripts.nvidia_sass:", "failed" if failures else "passed")
sys.exit(1 if failures else 0)
