"""Compressed input that fails loudly.  A truncated or corrupt ``.gz``,
``.bz2`` or ``.zst`` file raises :class:`CorruptInput`, an ``OSError`` that
the commands report per file (after the games read before the damage), where
gzip and bz2 raise ``EOFError`` and zstandard's stream reader raises its own
error, or just stops early on a truncated frame as if the file had ended.
"""

from __future__ import annotations

import bz2
import gzip
import io
import zlib
from typing import IO

TRUNCATED = "the compressed data ends before its end-of-stream marker (truncated file)"


class CorruptInput(OSError):
    """A compressed file that cannot be read to its end.

    >>> str(CorruptInput("x")), isinstance(CorruptInput("x"), OSError)
    ('x', True)
    """


class _Checked(io.RawIOBase):
    """A gzip or bz2 stream whose ``EOFError`` (and zlib's error for damaged
    deflate data) becomes :class:`CorruptInput`."""

    def __init__(self, inner: IO[bytes]) -> None:
        self._inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        # read1, not readinto: gzip's and bz2's readinto fill the whole buffer and
        # lose what they had decompressed when the damage is met on the way
        try:
            data = self._inner.read1(len(b))  # type: ignore[attr-defined]
        except EOFError:
            raise CorruptInput(TRUNCATED) from None
        except zlib.error as exc:
            raise CorruptInput(f"damaged gzip data: {exc}") from None
        n = len(data)
        b[:n] = data
        return n

    def close(self) -> None:
        self._inner.close()
        super().close()


class _Zstd(io.RawIOBase):
    """A zstd stream, frame after frame; a frame cut short or data that is not
    zstd raise :class:`CorruptInput`."""

    def __init__(self, raw: IO[bytes]) -> None:
        import zstandard

        self._raw = raw
        self._dctx = zstandard.ZstdDecompressor()
        self._error = zstandard.ZstdError
        # the decompressor of the frame being read, if any
        self._frame: zstandard.ZstdDecompressionObj | None = None
        self._out = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._out:
            rest = b""
            if self._frame is not None and self._frame.eof:
                rest, self._frame = self._frame.unused_data, None
            chunk = rest or self._raw.read(1 << 16)
            if not chunk:
                if self._frame is not None:
                    raise CorruptInput(TRUNCATED)
                return 0
            if self._frame is None:
                self._frame = self._dctx.decompressobj()
            try:
                self._out = memoryview(self._frame.decompress(chunk))
            except self._error as exc:
                raise CorruptInput(f"not readable as zstd: {exc}") from None
        n = min(len(b), len(self._out))
        b[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


def open_compressed(path: str) -> IO[bytes] | None:
    """A buffered binary reader that decompresses ``path`` by its suffix
    (``.gz``, ``.bz2``, ``.zst``), or None for any other name.

    >>> import os, tempfile, zstandard
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgn.zst")
    >>> data = zstandard.ZstdCompressor().compress(b"1. e4 *\\n" * 50)
    >>> _ = open(p, "wb").write(data * 2)                   # two frames
    >>> len(open_compressed(p).read())
    800
    >>> _ = open(p, "wb").write(data[:-5])                  # cut short
    >>> try:
    ...     open_compressed(p).read()
    ... except CorruptInput as exc:
    ...     print(exc)
    the compressed data ends before its end-of-stream marker (truncated file)
    """
    if path.endswith(".gz"):
        inner: io.RawIOBase = _Checked(gzip.open(path, "rb"))  # type: ignore[arg-type]  # noqa: SIM115
    elif path.endswith(".bz2"):
        inner = _Checked(bz2.open(path, "rb"))  # noqa: SIM115 - closed with the reader
    elif path.endswith(".zst"):
        inner = _Zstd(open(path, "rb"))  # noqa: SIM115 - closed with the reader
    else:
        return None
    return io.BufferedReader(inner, buffer_size=1 << 16)
