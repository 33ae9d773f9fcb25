#!/usr/bin/env python3
"""Writes tests/fuzz/corpus/: small hand-made image files, valid and hostile (truncated, corrupt,
zero-sized, huge headers), for every type the vkspd CLI reads. The fuzz target starts from them,
and the normal build replays them as regression tests (expected.txt says what each must give).
Standard library only; run it again to regenerate the same bytes. The files it does not write
are inputs the fuzzer found: jpeg_dht_*.jpg and jpeg_fill_bytes_before_soi.jpg made Debian's
stb_image write out of bounds before image_load.cpp refused them, and so did
jpeg_fill_bytes_past_first_read.jpg, whose 128 fill bytes before its start marker made stb (through
callbacks) decode from its second read on and then stale bytes (image_load.cpp refuses it), jpeg_entropy_shift_over_31.jpg
trips its (harmless) shift overflow; png_empty_first_idat.png (written here) made it memcpy to a null
pointer (samples/cli/stb_impl.cpp guards it); png_idat_length_past_end.png made it allocate 788 MB for
an 83-byte file (image_load.cpp refuses it); png_chunk_length_past_end.png, whose third chunk
declares 3.5 GB, made it read on from the wrong place and allocate 2 GB for a 156-byte file
(image_load.cpp refuses any chunk past the end); hdr_zero_length_run.hdr, a 16x1 run-length HDR
whose first run has length 0, made it loop forever (image_load.cpp refuses a run of length 0 and
run-length data cut short, hdr_truncated_run.hdr, written here); hdr_zero_header_line_zero_run.hdr,
whose header has a line of zero bytes (the end of stb's header, which image_load.cpp's walk of the
runs took for a header line) before run-length data cut short, looped the same way;
jpeg_scan_with_undefined_table.jpg, whose scan decodes with an AC table no segment defines, made
it index the table's symbols with uninitialized heap memory (image_load.cpp refuses it);
psd_colour_below_matte.psd, a four-channel PSD whose colours lie below the white matte stb takes
out, made it convert -1072.0 to a byte (undefined behaviour that touches no memory; the fuzz build
leaves that check off in stb's code, tests/fuzz/CMakeLists.txt). Keep them."""
import os
import struct
import sys
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

# An 8x8 RGB JPEG written by stb_image_write (stbi_write_jpg, quality 90).
JPEG_8X8 = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb0084000302020302020303030304030304050805050404050a070706080c0a0c0c0b0a0b0b0d0e12100d0e110e0b0b1016101113141515150c0f1718161418121415140103040405040509050509140d0b0d1414141414141414141414141414141414141414141414141414141414141414141414141414141414141414141414141414ffc00011080008000803012200021101031101ffc401a20000010501010101010100000000000000000102030405060708090a0b100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa0100030101010101010101010000000000000102030405060708090a0b1100020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f008b48f8a9f77f7dfad6bffc2d4ffa6dfad789691fc35af5fa8f8779561bfb06969fd58fe8ea7e03705f2ffbbfe5fe47ffd9")


# A 16x16 RGB progressive JPEG written by libjpeg-turbo's cjpeg (-progressive -optimize -quality 90):
# ten scans, Huffman tables defined before each scan that uses them, a DC refinement scan with none.
JPEG_PROGRESSIVE_16X16 = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb0043000302020302020303030304030304050805050404050a07"
    "0706080c0a0c0c0b0a0b0b0d0e12100d0e110e0b0b1016101113141515150c0f171816141812141514ffdb0043010304"
    "0405040509050509140d0b0d141414141414141414141414141414141414141414141414141414141414141414141414"
    "1414141414141414141414141414ffc20011080010001003012200021101031101ffc400150001010000000000000000"
    "0000000000000607ffc40014010100000000000000000000000000000000ffda000c030100021003100000018fd198a0"
    "3fffc40017100003010000000000000000000000000000040512ffda000801010001050252560525605256052560ffc4"
    "00191100010500000000000000000000000000000506111321ffda0008010301013f016daf591a7fffc4001b11010001"
    "0501000000000000000000000011b10405154181a2ffda0008010201013f01acbc60b6be655e47ffc400151001010000"
    "0000000000000000000000000031ffda0008010100063f028888ffc40017100003010000000000000000000000000000"
    "0121f0ffda0008010100013f21835116a22d445a8fffda000c0301000200030000001063ffc400181100020300000000"
    "000000000000000000001121d1f0ffda0008010301013f10df9a47ffc400191101000203000000000000000000000000"
    "21001141c1f0ffda0008010201013f106699e60e2a7fffc4001a10000105010000000000000000000000001100015161"
    "f0e1ffda0008010100013f10971ac7526343a526358ea4c6b1d7ffd9")

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, bit_depth=8, colour=6, rows=None, ihdr_size=None):
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    if rows is None:
        bpp = channels * bit_depth // 8
        rows = b"".join(b"\0" + bytes((x * 37 + y * 11) & 0xFF for x in range(width * bpp)) for y in range(height))
    ihdr = struct.pack(">IIBBBBB", ihdr_size[0] if ihdr_size else width, ihdr_size[1] if ihdr_size else height,
                       bit_depth, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(rows)) +
            png_chunk(b"IEND", b""))


def bmp(width, height, bpp=24, pixel_bytes=None, header_size=None, palette=b""):
    row = (width * bpp // 8 + 3) & ~3
    pixels = pixel_bytes if pixel_bytes is not None else bytes((i * 7) & 0xFF for i in range(row * abs(height)))
    w, h = header_size if header_size else (width, height)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, bpp, 0, len(pixels), 2835, 2835, len(palette) // 4, 0)
    offset = 14 + len(info) + len(palette)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + palette + pixels


def tga(width, height, pixels=None, image_type=2):
    header = struct.pack("<BBBHHBHHHHBB", 0, 0, image_type, 0, 0, 0, 0, 0, width, height, 32, 8)
    if pixels is None:
        pixels = bytes((i * 5) & 0xFF for i in range(width * height * 4))
    return header + pixels


def gif(width, height, lzw_min=2, data=None, screen=None):
    sw, sh = screen if screen else (width, height)
    head = b"GIF89a" + struct.pack("<HHBBB", sw, sh, 0x80, 0, 0)  # global table of 2 colours
    table = b"\x00\x00\x00\xff\xff\xff"
    image = b"," + struct.pack("<HHHHB", 0, 0, width, height, 0)
    if data is None:
        data = b"\x4c\x01"  # a 1x1 image: codes clear (4), 1, end (5) in 3 bits (min code size 2)
    return head + table + image + bytes([lzw_min]) + bytes([len(data)]) + data + b"\x00;"


def hdr(width, height, body=None, resolution=None):
    res = resolution if resolution else "-Y %d +X %d" % (height, width)
    head = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n" + res.encode() + b"\n"
    if body is None:  # flat (not run-length) RGBE: width < 8 is stored flat
        body = b"".join(bytes((128, 64, 32, 129)) for _ in range(width * height))
    return head + body


def psd(width, height, depth=8, channels=3, data=None):
    head = b"8BPS" + struct.pack(">H6xHIIHH", 1, channels, height, width, depth, 3)
    head += struct.pack(">I", 0) + struct.pack(">I", 0) + struct.pack(">I", 0)  # mode data, resources, layers
    if data is None:
        data = bytes((i * 3) & 0xFF for i in range(width * height * channels * depth // 8))
    return head + struct.pack(">H", 0) + data  # compression 0: raw


def main():
    os.makedirs(OUT, exist_ok=True)
    good_png = png(5, 3)
    files = {
        "png_valid_5x3_rgba.png": good_png,
        "png_valid_4x2_grey16.png": png(4, 2, bit_depth=16, colour=0),
        "png_truncated_in_idat.png": good_png[:45],
        # A valid PNG whose first IDAT chunk is empty: Debian's stb_image then copies 0 bytes into
        # its still-null IDAT buffer (memcpy(NULL, p, 0), undefined; found by the fuzzer).
        "png_empty_first_idat.png": good_png[:33] + png_chunk(b"IDAT", b"") + good_png[33:],
        "png_truncated_after_signature.png": good_png[:8],
        "png_zero_width.png": png(5, 3, ihdr_size=(0, 3)),
        "png_huge_header_100000x100000.png": png(5, 3, ihdr_size=(100000, 100000)),
        "png_huge_header_20000x1.png": png(5, 3, ihdr_size=(20000, 1)),
        # A valid header whose image is 2 GiB decoded as 16-bit RGBA: stb_image's sizes are 32-bit
        # signed ints, so image_load.cpp refuses it from the header, naming the limit.
        "png_16bit_rgba_16384x16384.png": png(5, 3, bit_depth=16, colour=6, ihdr_size=(16384, 16384)),
        "png_corrupt_zlib.png": good_png[:41] + b"\xff" * 8 + good_png[49:],
        "png_bad_bit_depth.png": png(5, 3, bit_depth=3),
        # A 1x1 PNG whose zlib data inflates to 4 MiB: stb_image grows its buffer as long as the
        # stream goes on (a 1 MB file of this kind took 1 GB), so image_load.cpp caps each of its
        # allocations at twice the decoded image and 1 MiB.
        "png_inflates_past_image.png": png(1, 1, rows=b"\0" * (4 << 20)),
        "bmp_valid_3x2.bmp": bmp(3, 2),
        "bmp_truncated_pixels.bmp": bmp(3, 2)[:60],
        "bmp_huge_header.bmp": bmp(3, 2, header_size=(0x7FFFFFFF, 0x7FFFFFFF)),
        "bmp_zero_bpp.bmp": bmp(3, 2, bpp=0, pixel_bytes=b"\0" * 8),
        "bmp_negative_width.bmp": bmp(3, 2, header_size=(-3, 2)),
        # An 8-bit BMP with a one-entry palette (blue 10, green 20, red 30) whose pixels name
        # entries 0, 200, 255 and 17: stb_image looks entries past the palette up in an uncleared
        # stack array; built with zeroed locals (cmake/StbFlags.cmake) they are black
        # (cli.CliLoad.BmpPixelsPastThePaletteAreBlack).
        "bmp_pixels_past_palette.bmp": bmp(4, 1, bpp=8, pixel_bytes=bytes([0, 200, 255, 17]),
                                           palette=bytes([10, 20, 30, 0])),
        "tga_valid_2x2.tga": tga(2, 2),
        "tga_truncated.tga": tga(2, 2)[:22],
        "tga_huge_header_65535x65535.tga": tga(65535, 65535, pixels=b"\0" * 16),
        "tga_corrupt_rle.tga": tga(4, 4, pixels=b"\xff" * 3, image_type=10),
        "gif_valid_1x1.gif": gif(1, 1),
        "gif_truncated.gif": gif(1, 1)[:20],
        "gif_huge_screen_65535x65535.gif": gif(1, 1, screen=(65535, 65535)),
        "gif_bad_lzw_code_size.gif": gif(1, 1, lzw_min=13),
        "hdr_valid_3x2.hdr": hdr(3, 2),
        "hdr_truncated_pixels.hdr": hdr(3, 2)[:-9],
        "hdr_huge_resolution.hdr": hdr(3, 2, resolution="-Y 100000 +X 100000"),
        "hdr_bad_resolution.hdr": hdr(3, 2, resolution="+Z 3 -Q 2"),
        "hdr_corrupt_rle.hdr": hdr(16, 1, body=b"\x02\x02\x00\x10" + b"\xff" * 12),
        # Run-length data that ends inside the first scanline: Debian's stb_image read zeros past
        # the end as runs of length 0 and looped forever.
        "hdr_truncated_run.hdr": hdr(16, 1, body=b"\x02\x02\x00\x10" + b"\x88\x40" + b"\x04\x01\x02"),
        "psd_valid_2x2.psd": psd(2, 2),
        "psd_truncated.psd": psd(2, 2)[:30],
        "psd_huge_header.psd": psd(2, 2, data=b"")[:14] + struct.pack(">II", 300000, 300000) + psd(2, 2)[22:],
        "jpeg_valid_8x8.jpg": JPEG_8X8,
        "jpeg_truncated.jpg": JPEG_8X8[:200],
        "jpeg_huge_sof.jpg": JPEG_8X8.replace(b"\xff\xc0\x00\x11\x08\x00\x08\x00\x08",
                                              b"\xff\xc0\x00\x11\x08\xff\xff\xff\xff", 1),
        # The 8x8 JPEG's scan 16 and 17 times: each scan makes stb_image decode every block of its
        # components again, so image_load.cpp refuses a component in more than 16 scans (a 2 KB
        # progressive JPEG of 200 empty scans took 0.6 s to load, more under the fuzz test's 10 s
        # timeout with its sanitizers).
        # Tables no segment defines: stb_image mallocs its decoder state without clearing it, so
        # it decoded with whatever the heap held (the fuzzer's jpeg_scan_with_undefined_table.jpg
        # indexed a Huffman table's symbols millions of entries off); image_load.cpp refuses both.
        "jpeg_undefined_huffman_table.jpg": JPEG_8X8.replace(b"\xff\xda\x00\x0c\x03\x01\x00",
                                                             b"\xff\xda\x00\x0c\x03\x01\x02", 1),
        "jpeg_undefined_quant_table.jpg": JPEG_8X8.replace(b"\x08\x00\x08\x00\x08\x03\x01\x22\x00",
                                                           b"\x08\x00\x08\x00\x08\x03\x01\x22\x02", 1),
        "jpeg_valid_progressive_16x16.jpg": JPEG_PROGRESSIVE_16X16,
        "jpeg_16_scans.jpg": JPEG_8X8[:-2] + JPEG_8X8[JPEG_8X8.index(b"\xff\xda"):-2] * 15 + b"\xff\xd9",
        "jpeg_17_scans.jpg": JPEG_8X8[:-2] + JPEG_8X8[JPEG_8X8.index(b"\xff\xda"):-2] * 16 + b"\xff\xd9",
        "empty_file.png": b"",
        "text_file.png": b"this is not an image\n",
        "random_bytes.bin": bytes((i * 131 + 7) & 0xFF for i in range(512)),
    }
    for name, data in sorted(files.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print("wrote %d files to %s" % (len(files), OUT))


if __name__ == "__main__":
    sys.exit(main())
