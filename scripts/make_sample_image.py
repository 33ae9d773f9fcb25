#!/usr/bin/env python3
"""Draws samples/data/vkspd-sample.png, the project's bundled test image (333x187: odd on both
axes, so every level of its chain exercises the exact odd-size filter). Standard library only."""
import math
import struct
import sys
import zlib

W, H = 333, 187


def pixel(x, y):
    # Sky-to-ground gradient.
    t = y / (H - 1)
    r, g, b = 40 + 150 * t, 90 + 100 * (1 - t), 200 - 120 * t
    # A sun made of rings: fine detail that averages into a smooth disc.
    dx, dy = x - 240.5, y - 60.5
    d = math.hypot(dx, dy)
    if d < 42:
        ring = int(d / 3) % 2
        r, g, b = (255, 210, 60) if ring else (250, 120, 30)
    # A black/white checkerboard of single texels: its mips must be mid grey.
    if 20 <= x < 120 and 110 <= y < 170:
        v = 255 if (x + y) % 2 else 0
        r, g, b = v, v, v
    # One-texel lines at odd positions: dropped by filters that skip the last odd column.
    if x in (0, W - 1) or y in (0, H - 1) or x == 166:
        r, g, b = 255, 0, 255
    a = 255 if (x // 37 + y // 31) % 5 else 160
    return bytes((int(r), int(g), int(b), a))


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "samples/data/vkspd-sample.png"
    rows = [b"".join(pixel(x, y) for x in range(W)) for y in range(H)]
    with open(out, "wb") as f:
        f.write(png(W, H, rows))
