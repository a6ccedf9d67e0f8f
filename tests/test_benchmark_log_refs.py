"""References to the benchmark log (docs/benchmarks/, one file per area) name a file and a section that exist.

The log was one file, docs/benchmarks.md, until it was split by area (issue 27 item 6); code comments, docs and
tests cite its sections as `docs/benchmarks/<area>.md § <heading>`."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "docs" / "benchmarks"
SCANNED = ["src", "tests", "benchmarks", "scripts", "docs", "README.md", "Makefile"]
SUFFIXES = {".py", ".md", ".toml", ".sh", ".txt", ""}
REF = re.compile(r"benchmarks/([a-z_]+\.md)`?(?:\s*§\s*\"?([^\"()\n;,.]+))?")


def _texts() -> list[tuple[Path, str]]:
    files: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        files += [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return [(p, p.read_text(encoding="utf-8")) for p in files
            if p.suffix in SUFFIXES and "__pycache__" not in p.parts and p != Path(__file__)
            and not any(part.endswith(".egg-info") for part in p.parts)]  # pip's copy of an older README


def _headings(name: str) -> list[str]:
    text = (LOG / name).read_text(encoding="utf-8")
    return [m.group(1) for m in re.finditer(r"^#{2,3} (.+)$", text, re.M)]


def _names_a_heading(section: str, headings: list[str]) -> bool:
    """The first word, and a number right after it ("Session 14", "Issue 30"), begin some heading."""
    words = section.split()
    prefix = " ".join(words[:2]) if len(words) > 1 and words[1][:1].isdigit() else words[0]
    return any(h.startswith(prefix) for h in headings)


def test_the_old_single_file_is_cited_nowhere() -> None:
    stale = [str(p.relative_to(ROOT)) for p, text in _texts() if "docs/benchmarks.md" in text]
    assert stale == []


def test_every_cited_area_file_and_section_exists() -> None:
    refs = [(p, m.group(1), (m.group(2) or "").strip()) for p, text in _texts() for m in REF.finditer(text)
            if text[max(0, m.start() - 5):m.start()] == "docs/" or p.parent == ROOT / "docs"]
    assert len(refs) >= 10, "the scan found too few references to be reading the repository"
    missing = [(str(p.relative_to(ROOT)), name) for p, name, _ in refs if not (LOG / name).is_file()]
    assert missing == []
    unknown = [(str(p.relative_to(ROOT)), name, section) for p, name, section in refs
               if section and not _names_a_heading(section, _headings(name))]
    assert unknown == []


def test_the_index_lists_every_area_file() -> None:
    index = (LOG / "README.md").read_text(encoding="utf-8")
    areas = sorted(p.name for p in LOG.glob("*.md") if p.name != "README.md")
    assert areas and all(f"]({name})" in index for name in areas)
