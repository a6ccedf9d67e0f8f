"""Decode text files: UTF-8 first, then Korean legacy encodings (CP949/EUC-KR) detected by charset-normalizer."""

from __future__ import annotations

import codecs
import unicodedata

import charset_normalizer

from geunkeo.errors import IngestError
from geunkeo.text.patterns import HANGUL

# What charset-normalizer may call a Korean legacy file; all of them decode with cp949 (a superset of EUC-KR).
_KOREAN_CODECS = {"cp949", "euc_kr", "ms949", "uhc", "johab", "iso2022_kr"}


def decode_bytes(data: bytes, name: str = "<bytes>") -> tuple[str, str]:
    """Return (text, encoding). Accepts UTF-8 (with or without BOM), UTF-16 with a BOM, and CP949/EUC-KR.

    Anything else raises IngestError instead of returning mojibake.
    """
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data[len(codecs.BOM_UTF8):], "utf-8", name), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _strict(data, "utf-16", name)
        if _implausible(text):
            raise IngestError(f"{name}: decoding doubtful: a UTF-16 byte-order mark, but the text it gives is mostly "
                              "unlikely characters (the bytes are not UTF-16); re-save the file as UTF-8", path=name)
        return text, "utf-16"
    if b"\x00" in data:
        raise IngestError(f"{name}: looks like a binary file (contains NUL bytes), not text", path=name)
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best = charset_normalizer.from_bytes(data).best()
    guess = best.encoding if best is not None else None
    if guess in _KOREAN_CODECS or guess is None or guess.startswith("cp9"):
        # cp949 is a superset of EUC-KR, so one codec covers both spellings of Korean legacy files.
        try:
            text = data.decode("cp949")
        except UnicodeDecodeError:
            text = ""
        if text and HANGUL.search(text) and not _has_controls(text):
            return text, "cp949"
    raise IngestError(
        f"{name}: text is neither UTF-8 nor CP949/EUC-KR (detector guessed {guess or 'binary/unknown'}); "
        "re-save the file as UTF-8",
        path=name,
    )


def read_text(path, name: str | None = None) -> tuple[str, str]:
    """Read and decode a text file (see `decode_bytes`)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise IngestError(f"{path}: cannot read file ({e.strerror or e})", path=str(path)) from e
    return decode_bytes(data, name or str(path))


def _strict(data: bytes, codec: str, name: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as e:
        raise IngestError(f"{name}: invalid {codec} at byte {e.start}; re-save the file as UTF-8", path=name) from e


def _has_controls(text: str) -> bool:
    """Control characters other than tab/newline/form feed mean the decode picked the wrong codec."""
    return any(ord(c) < 32 and c not in "\t\n\r\f" for c in text)


def _implausible(text: str) -> bool:
    """Mojibake: ASCII or UTF-8 bytes read as UTF-16 come out as CJK ideographs and unassigned or private-use
    code points ("慶楬…"); a Korean or English document is mostly Hangul, Latin, digits and punctuation."""
    letters = [c for c in text if not c.isspace()]
    if len(letters) < 8:
        return False
    odd = sum(1 for c in letters if "\u4e00" <= c <= "\u9fff" or "\ue000" <= c <= "\uf8ff" or
              unicodedata.category(c) in ("Cn", "Co", "Cs"))
    readable = sum(1 for c in letters if HANGUL.match(c) or c.isascii())
    return odd > 0.5 * len(letters) and readable < 0.2 * len(letters)
