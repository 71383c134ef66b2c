"""The competition logo: a small PNG drawn in code (standard library only, byte-for-byte reproducible).

Codabench requires a logo (``image:`` in ``competition.yaml``); CodaLab shows it on the competition
card. The picture: a parchment page with lines of text, one word of which is a masked gap, and the
label "ST 2024" underneath.
"""
import struct
import zlib

SIZE = 160
INK = (38, 52, 84)
PAGE = (244, 232, 200)
EDGE = (176, 142, 92)
GAP = (196, 72, 52)
BACKGROUND = (30, 44, 74)
LABEL = (244, 232, 200)

# 5x7 bitmap glyphs for the label (rows top to bottom, "#" = ink).
GLYPHS = {
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    " ": (".....",) * 7,
}


def _canvas(width, height, colour):
    """A ``height`` x ``width`` grid of RGB tuples filled with ``colour``."""
    return [[colour] * width for _ in range(height)]


def _rect(pixels, x0, y0, x1, y1, colour):
    """Fill the rectangle [x0, x1) x [y0, y1) (clipped to the canvas)."""
    for y in range(max(0, y0), min(len(pixels), y1)):
        row = pixels[y]
        for x in range(max(0, x0), min(len(row), x1)):
            row[x] = colour


def _text(pixels, text, x0, y0, scale, colour):
    """Draw ``text`` with the 5x7 glyphs, each dot a ``scale`` x ``scale`` square."""
    for index, char in enumerate(text):
        glyph = GLYPHS[char]
        left = x0 + index * 6 * scale
        for row, line in enumerate(glyph):
            for col, dot in enumerate(line):
                if dot == "#":
                    _rect(pixels, left + col * scale, y0 + row * scale,
                          left + (col + 1) * scale, y0 + (row + 1) * scale, colour)


def draw():
    """Return the logo as rows of RGB tuples."""
    pixels = _canvas(SIZE, SIZE, BACKGROUND)
    _rect(pixels, 22, 14, 138, 106, EDGE)
    _rect(pixels, 25, 17, 135, 103, PAGE)
    # Lines of "text": runs of ink separated by spaces; one run is a gap marker.
    lines = ((18, 26, 14, 30), (30, 12, 22, 20), (16, 34, 20, 0), (26, 20, 28, 0), (22, 30, 0, 0))
    for number, runs in enumerate(lines):
        y = 26 + number * 15
        x = 34
        for run_index, length in enumerate(runs):
            if not length:
                continue
            colour = GAP if (number, run_index) == (1, 1) else INK
            height = 8 if colour == GAP else 4
            top = y - 2 if colour == GAP else y
            _rect(pixels, x, top, min(x + length, 126), top + height, colour)
            x += length + 6
    label = "ST 2024"
    scale = 3
    width = len(label) * 6 * scale - scale
    _text(pixels, label, (SIZE - width) // 2, 118, scale, LABEL)
    return pixels


def _chunk(kind, data):
    """One PNG chunk: length, type, data, CRC."""
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_bytes(pixels=None):
    """Encode ``pixels`` (default: the logo) as an 8-bit RGB PNG."""
    pixels = draw() if pixels is None else pixels
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
