"""Writes the stand-in assets the render tests use, at the paths the corpus
card and its template name (frames, masks, stat box, margin, symbols).

They are small and plain on purpose: shapes in the right places so that a
render shows the structure of the card, not the design tool's artwork (which
is remote and not redistributable here). Standard library only:

    python3 make_assets.py   # in this directory
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
# Stand-in rasters are drawn at 1/10 of the card's 1500 x 2100.
W, H = 150, 210


def png(path, width, height, pixel):
    rows = b""
    for y in range(height):
        rows += b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width))
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    data = (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))
    write(path, data)


def write(path, data):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def frame(color):
    # The frame's colour everywhere but the art window (40..1460 x 203..1251
    # on the card), a little lighter towards the bottom.
    def pixel(x, y):
        if 4 <= x < 146 and 20 <= y < 125:
            return (0, 0, 0, 0)
        shade = y * 40 // H
        return (min(255, color[0] + shade), min(255, color[1] + shade), min(255, color[2] + shade), 255)
    return pixel


for name, color in {"blue": (27, 58, 107), "black": (34, 34, 38), "white": (200, 200, 190),
                    "yellow": (201, 162, 39)}.items():
    png(f"custom/11-20-22/{name}.png", W, H, frame(color))

# The stat box, 246 x 101 on the card: a dark plate with a light rim.
png("custom/11-20-22/statBoxRight.png", 49, 20,
    lambda x, y: (230, 230, 230, 255) if x in (0, 48) or y in (0, 19) else (40, 40, 44, 255))

# The margin, 1632 x 2220 around the card: black outside the card only.
png("custom/11-20-22/margin.png", 102, 139,
    lambda x, y: (0, 0, 0, 255) if x < 4 or x >= 98 or y < 4 or y >= 135 else (0, 0, 0, 0))


def svg(path, body, width=1500, height=2100):
    write(path, f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}">{body}</svg>\n')


# Masks: opaque where the frame shows.
svg("general/rightHalf.svg", '<rect x="750" y="0" width="750" height="2100"/>')
svg("custom/11-20-22/title.svg", '<rect x="70" y="70" width="1360" height="120" rx="20"/>')
svg("custom/11-20-22/type.svg", '<rect x="70" y="1860" width="1360" height="110" rx="20"/>')
svg("custom/11-20-22/rules.svg", '<rect x="110" y="1260" width="1280" height="590"/>')
svg("custom/11-20-22/pinline.svg",
    '<path fill-rule="evenodd" d="M40 40H1460V2060H40Z M56 56V2044H1444V56Z"/>')

# Symbols: coloured discs with a simple mark, 100 x 100.
def disc(fill, mark):
    return f'<circle cx="50" cy="50" r="48" fill="{fill}"/>{mark}'

svg("custom/11-20-22/symbol/3.svg",
    disc("#cac5c0", '<path d="M32 30h32l-14 18a16 16 0 1 1-18 18" fill="none" stroke="#111" stroke-width="9"/>'),
    100, 100)
svg("custom/11-20-22/symbol/blue.svg",
    disc("#6fa8dc", '<path d="M50 18c14 24 22 36 22 48a22 22 0 0 1-44 0c0-12 8-24 22-48z" fill="#0b2a4a"/>'),
    100, 100)
svg("custom/11-20-22/symbol/black.svg",
    disc("#a09a96", '<circle cx="50" cy="44" r="22" fill="#111"/><rect x="38" y="60" width="24" height="16" fill="#111"/>'),
    100, 100)
svg("custom/11-20-22/symbol/cw.svg",
    disc("#cac5c0", '<path d="M30 60a22 22 0 1 1 30 16" fill="none" stroke="#111" stroke-width="9"/>'),
    100, 100)
svg("general/icon/palette.svg",
    '<path d="M50 5a45 45 0 1 0 0 90c8 0 10-8 6-14s0-12 8-12h12a20 20 0 0 0 19-24C90 22 72 5 50 5z" fill="#fff"/>',
    100, 100)
