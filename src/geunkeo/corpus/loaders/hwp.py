"""`.hwp` loader (HWP 5.0 binary): paragraph text records from the BodyText/Section* streams (olefile + zlib).

Only the text is read (HWPTAG_PARA_TEXT records); tables come out as one line per cell paragraph. Password-
protected and distribution ("배포용") documents are refused with a message to save the file as HWPX.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import olefile

from geunkeo.corpus.base import Document
from geunkeo.corpus.loaders.common import build_document
from geunkeo.errors import IngestError

HWPTAG_PARA_TEXT = 0x10 + 51
_SIGNATURE = b"HWP Document File"
_FLAG_COMPRESSED, _FLAG_PASSWORD, _FLAG_DISTRIBUTION = 0x1, 0x2, 0x4
# Control codes that occupy one UTF-16 unit; every other code below 32 is followed by 7 more units of payload.
_CHAR_CONTROLS = {0, 10, 13, *range(24, 32)}
_CONTROL_TEXT = {9: "\t", 10: "\n", 24: "-", 30: " ", 31: " "}
_SECTION = re.compile(r"^Section(\d+)$")
_SAVE_AS_HWPX = "open it in Hancom Office and save it as HWPX (.hwpx), which geunkeo reads fully"


class HwpLoader:
    suffixes = (".hwp",)

    def load(self, path: Path, root: Path | None = None) -> Iterator[Document]:
        try:
            if not olefile.isOleFile(str(path)):
                raise IngestError(f"{path}: not an HWP 5 file (HWP 3 and older are not supported); {_SAVE_AS_HWPX}",
                                  path=str(path))
            with olefile.OleFileIO(str(path)) as ole:
                flags = _header_flags(ole, path)
                sections = sorted(
                    (int(m.group(1)), entry) for entry in ole.listdir()
                    if len(entry) == 2 and entry[0] == "BodyText" and (m := _SECTION.match(entry[1]))
                )
                if not sections:
                    raise IngestError(f"{path}: no BodyText sections found; {_SAVE_AS_HWPX}", path=str(path))
                paragraphs: list[str] = []
                for _, entry in sections:
                    data = ole.openstream(entry).read()
                    if flags & _FLAG_COMPRESSED:
                        data = _inflate(data, path)
                    paragraphs.extend(para_texts(data))
        except IngestError:
            raise
        except (OSError, struct.error, ValueError) as e:
            raise IngestError(f"{path}: unreadable HWP ({type(e).__name__}: {e}); {_SAVE_AS_HWPX}",
                              path=str(path)) from e
        text = "\n".join(p for p in paragraphs if p.strip())
        yield build_document(path, root, text, metadata={"format": "hwp", "sections": len(sections)})


def _header_flags(ole: olefile.OleFileIO, path: Path) -> int:
    if not ole.exists("FileHeader"):
        raise IngestError(f"{path}: OLE file without an HWP FileHeader; {_SAVE_AS_HWPX}", path=str(path))
    header = ole.openstream("FileHeader").read(256)
    if not header.startswith(_SIGNATURE) or len(header) < 40:
        raise IngestError(f"{path}: OLE file is not an HWP document; {_SAVE_AS_HWPX}", path=str(path))
    flags = struct.unpack_from("<I", header, 36)[0]
    if flags & _FLAG_PASSWORD:
        raise IngestError(f"{path}: HWP file is password-protected; remove the password and {_SAVE_AS_HWPX}",
                          path=str(path))
    if flags & _FLAG_DISTRIBUTION:
        raise IngestError(f"{path}: HWP distribution document (배포용 문서) is encrypted; {_SAVE_AS_HWPX}",
                          path=str(path))
    return flags


def _inflate(data: bytes, path: Path) -> bytes:
    try:
        # Raw deflate without a zlib header; decompressobj ignores sector padding after the stream's end.
        return zlib.decompressobj(-15).decompress(data)
    except zlib.error as e:
        raise IngestError(f"{path}: corrupt compressed HWP section ({e}); {_SAVE_AS_HWPX}", path=str(path)) from e


def para_texts(data: bytes) -> list[str]:
    """The text of every HWPTAG_PARA_TEXT record in a decompressed section stream, in order."""
    out, pos, n = [], 0, len(data)
    while pos + 4 <= n:
        header = struct.unpack_from("<I", data, pos)[0]
        tag, size = header & 0x3FF, (header >> 20) & 0xFFF
        pos += 4
        if size == 0xFFF:  # long record: the real size follows
            if pos + 4 > n:
                break
            size = struct.unpack_from("<I", data, pos)[0]
            pos += 4
        if tag == HWPTAG_PARA_TEXT:
            out.append(_decode_para(data[pos: pos + size]))
        pos += size
    return out


def _decode_para(payload: bytes) -> str:
    units = struct.unpack_from(f"<{len(payload) // 2}H", payload)
    chars, i = [], 0
    while i < len(units):
        code = units[i]
        if code >= 32:
            chars.append(chr(code))
            i += 1
            continue
        chars.append(_CONTROL_TEXT.get(code, ""))
        i += 1 if code in _CHAR_CONTROLS else 8
    # Surrogate pairs arrive as two units; round-trip through UTF-16 to join them.
    return "".join(chars).encode("utf-16", "surrogatepass").decode("utf-16", "replace").strip()
