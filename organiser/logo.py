"""Competition logos: PNGs drawn in code (standard library only, byte-for-byte reproducible).

Codabench requires a logo (``image:`` in ``competition.yaml``); CodaLab shows it on the competition card. A
competition may draw its own (``logo_png()`` in its ``bundle_hooks.py``); the others get :func:`generic`, rows of
two-coloured bars seeded by the competition's id.
"""
import struct
import zlib


def generic(cid, size=160):
    """A plain logo for competition ``cid``: rows of two-coloured bars (lines of "text"), seeded by the id."""
    colours = ((0x3B, 0x6E, 0xA5), (0xD9, 0x8C, 0x2B))
    background = (0xF4, 0xF6, 0xF9)
    pixels = [[background] * size for _ in range(size)]
    seed = zlib.crc32(cid.encode("utf-8"))
    for line in range(6):
        x, y = 20, 24 + line * 20
        for run in range(4):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            length = 10 + seed % 22
            colour = colours[(seed >> 8) % 2]
            for row in range(y, y + 8):
                for col in range(x, min(x + length, size - 20)):
                    pixels[row][col] = colour
            x += length + 6
    return png_bytes(pixels)


def _chunk(kind, data):
    """One PNG chunk: length, type, data, CRC."""
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_bytes(pixels):
    """Encode ``pixels`` (rows of RGB tuples) as an 8-bit RGB PNG."""
    height, width = len(pixels), len(pixels[0])
    raw = bytearray()
    for row in pixels:
        raw.append(0)  # filter type: none
        for red, green, blue in row:
            raw.extend((red, green, blue))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _chunk(b"IEND", b""))


def png_size(data):
    """Return (width, height) of PNG ``data``, or None when it is not a PNG with an IHDR chunk."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])
