"""A tiny PNG reader for screenshots (8-bit RGB/RGBA, non-interlaced: what Chromium writes), so tests can
look at pixels without an imaging library."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


class Png:
    def __init__(self, path: Path, max_rows: int | None = None) -> None:
        """Decode (only the first ``max_rows`` rows when given: pure Python is slow)."""
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat = 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos : pos + 8])
            body = data[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
                self.channels = 3 if color == 2 else 4
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        raw = zlib.decompress(idat)
        stride = self.width * self.channels
        rows: list[bytearray] = []
        prev = bytearray(stride)
        for y in range(min(self.height, max_rows or self.height)):
            f = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
            bpp = self.channels
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if f == 1:
                    line[i] = (line[i] + a) & 0xFF
                elif f == 2:
                    line[i] = (line[i] + b) & 0xFF
                elif f == 3:
                    line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
                elif f == 4:
                    line[i] = (line[i] + _paeth(a, b, c)) & 0xFF
            rows.append(line)
            prev = line
        self.rows = rows

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        i = x * self.channels
        row = self.rows[y]
        return row[i], row[i + 1], row[i + 2]
