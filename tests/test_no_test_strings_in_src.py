"""src comments and docstrings quote no test case's string (project rule; issue 30).

Examples live in tests: a question, an invented office or a notice title from a test or a benchmark set,
quoted in a src comment, ties the code's explanation to one case and leaks the held-out sets into the code.
A comment explains the behaviour generically or with a made-up example found nowhere in tests/ or
benchmarks/data/.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIN_LEN = 8
# a quoted fragment needs at least this many distinct letters (see distinct_letters) to count as a case's
MIN_DISTINCT_LETTERS = 4

# "…", “…”, ‘…’, 「…」, and '…' not inside a word (an apostrophe is no quote); `…` marks code, not a case
_QUOTED = re.compile(
    r'"([^"\n]+)"|“([^”]+)”|‘([^’]+)’|「([^」]+)」|(?<![\w\'])\'([^\'\n]+)\'(?![\w\'])')
_WORDS = re.compile(r"[^\W\d_]+")
_WS = re.compile(r"\s+")
# an identifier, a path, a key=value or markup: the code's vocabulary, not a case's text
_CODE_LIKE = re.compile(r"^[^\s가-힣]*[_./=\[\]<>|:{}()][^\s가-힣]*$")

# words any document or comment uses: function words, the parts of a citation, contact, date and money
# words, polite endings. A fragment made only of these (with numbers and punctuation) is not a case's string.
COMMON = frozenset(_WS.split("""
the and or of to in on at by for from with as is are be it this that no not if any all each per via
article section clause paragraph item schedule part chapter regulation regulations rule rules page table
form note annex appendix general conditions condition terms exclusions definitions
room floor building ext tel fax phone email office team unit level box
st nd rd th am pm
january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday
제 조 항 호 목 장 절 관 편 별표 부칙 별지 서식 및 또는 등 의 년 월 일 시 분 층 호실 내선 번 원 만원 억원 개 회 학기
수 있다 없다 있습니다 없습니다 됩니다 한다 합니다 하세요 주세요 경우 다음 각 같다 이내 이상 이하 이후 이전 때
""".strip()))


def distinct_letters(fragment: str) -> int:
    """Letters of the words that make the fragment one case's: Hangul words other than COMMON ones,
    Latin acronyms and CamelCase (IGU, BlueWave) and runs of two or more capitalised words (a name such as
    Harbour View Centre); lowercase English and a lone capitalised word (Benefits) are ordinary prose."""
    words = [w for w in _WORDS.findall(fragment) if w.lower() not in COMMON]
    count = 0
    for i, w in enumerate(words):
        acronym = any(c.isupper() for c in w[1:])
        in_name = w[0].isupper() and any(v[0].isupper() and v.isascii() for v in words[max(i - 1, 0):i] + words[i + 1:i + 2])
        if not w.isascii() or acronym or in_name:
            count += len(w)
    return count


def quoted_fragments(text: str) -> Iterator[str]:
    """The quoted fragments of a comment or docstring worth checking: long and not only common words."""
    for m in _QUOTED.finditer(text):
        frag = _WS.sub(" ", next(g for g in m.groups() if g is not None)).strip()
        if len(frag) >= MIN_LEN and distinct_letters(frag) >= MIN_DISTINCT_LETTERS and not _CODE_LIKE.match(frag):
            yield frag


def split_source(source: str) -> tuple[list[tuple[int, str]], str]:
    """(line, text) of each docstring (any statement that is a bare string) and of each run of consecutive
    comment lines (one quote may wrap), and the source with those blanked: the code's own words (literals,
    names). One tokenizer pass, the slow part of this test."""
    lines = source.splitlines()
    texts: list[tuple[int, str]] = []
    run: list[str] = []
    start = last = -1
    # a string token that opens a logical line and is followed by its NEWLINE is a bare string statement
    line_start, pending = True, None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            if run and row != last + 1:
                texts.append((start, " ".join(run)))
                run = []
            if not run:
                start = row
            run.append(tok.string.lstrip("#").strip())
            last = row
            lines[row - 1] = lines[row - 1][:col]
            continue
        if tok.type in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            continue
        if tok.type == tokenize.NEWLINE and pending is not None and not pending.string.lower().startswith(("f", "rf")):
            texts.append((pending.start[0], str(ast.literal_eval(pending.string))))
            for i in range(pending.start[0] - 1, pending.end[0]):
                lines[i] = ""
        pending = tok if line_start and tok.type == tokenize.STRING else None
        line_start = tok.type == tokenize.NEWLINE
    if run:
        texts.append((start, " ".join(run)))
    return texts, "\n".join(lines)


def _json_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)


def read_test_text(paths: Iterable[Path]) -> str:
    """All text of the test files and data sets, whitespace collapsed; JSON decoded (escapes undone)."""
    parts = []
    for p in paths:
        raw = p.read_text(encoding="utf-8")
        parts.append(raw)
        if p.suffix == ".json":
            parts.extend(_json_strings(json.loads(raw)))
        elif p.suffix == ".jsonl":
            for line in raw.splitlines():
                if line.strip():
                    parts.extend(_json_strings(json.loads(line)))
    return _WS.sub(" ", "\n".join(parts))


def find_test_strings(sources: dict[str, str], tests: str, other_code: str = "") -> list[tuple[str, int, str]]:
    """(file, line, fragment) for each quoted comment/docstring fragment of `sources` found in `tests`.

    A fragment that the src code itself uses outside comments (a literal, a name) is the code's own word,
    quoted to explain the code, and is not reported.
    """
    split = {name: split_source(source) for name, source in sources.items()}
    code = _WS.sub(" ", " ".join([other_code, *(c for _, c in split.values())]))
    hits = []
    for name, (texts, _) in split.items():
        for line, text in texts:
            for frag in quoted_fragments(_WS.sub(" ", text)):
                if frag in tests and frag not in code:
                    hits.append((name, line, frag))
    return hits


def _test_files() -> list[Path]:
    files = [p for p in (ROOT / "tests").rglob("*") if p.suffix in {".py", ".json", ".jsonl"}]
    files += [p for p in (ROOT / "benchmarks" / "data").rglob("*")
              if p.suffix in {".json", ".jsonl", ".tsv", ".md"}]
    return sorted(p for p in files if p.is_file() and p.resolve() != Path(__file__).resolve())


def test_src_comments_quote_no_test_string():
    sources = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
               for p in sorted((ROOT / "src").rglob("*.py"))}
    # templates, scripts and data files under src are code too (UI labels, word tables)
    other = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "src").rglob("*"))
                      if p.is_file() and p.suffix in {".html", ".js", ".css", ".json", ".txt", ".tsv", ".toml"})
    hits = find_test_strings(sources, read_test_text(_test_files()), other)
    assert not hits, "src comments/docstrings quote test strings; describe the case generically or " \
        "invent an example found nowhere in tests/ or benchmarks/data/:\n" + \
        "\n".join(f"  {f}:{n}: {frag!r}" for f, n, frag in hits)


_SRC = '''"""Reads notices, e.g. "벚꽃마루 구민회관 3층 대강당"."""

def f(x):
    # a contact such as "Quillon Tower, Level 9"
    # or one split over lines: "Quillon
    # Tower, Level 9" is reported too
    return x  # "Quillon Tower" is the code's own word here
LABEL = "Quillon Tower"
'''


def test_finder_reports_a_quoted_test_string_in_a_comment_or_docstring():
    tests = "cases = ['벚꽃마루 구민회관 3층 대강당', 'Quillon Tower, Level 9', 'Quillon Tower']"
    hits = find_test_strings({"m.py": _SRC}, _WS.sub(" ", tests))
    assert [(n, frag) for _, n, frag in hits] == [
        (1, "벚꽃마루 구민회관 3층 대강당"), (4, "Quillon Tower, Level 9"), (4, "Quillon Tower, Level 9")]


def test_finder_ignores_common_words_short_fragments_and_unquoted_text():
    src = ('# see "제3조 제2항 제1호", "Section 4.2 of the", "2025. 3. 1.", "the office"\n'
           '# a short "대강당 3층" and an unquoted 벚꽃마루 구민회관 3층 대강당\n'
           "# the student's note and the team's answer, both 'quoted' across apostrophes\n")
    tests = "제3조 제2항 제1호 Section 4.2 of the 2025. 3. 1. the office 대강당 3층 벚꽃마루 구민회관 3층 대강당 " \
        "s note and the team"
    assert find_test_strings({"m.py": src}, tests) == []


def test_the_old_quotes_would_be_caught():
    # each shape of quote the src comments used before issue 30's clean-up
    tests = "휴학은 최대 몇 학기 2층 학술정보서비스팀 the IGU Graduate School Handbook 한솔구 공영주차장 설치 및 관리 조례"
    src = ('"""Answers "휴학은 최대 몇 학기" questions."""\n'
           "# extensions like “2층 학술정보서비스팀”\n"
           "# 「한솔구 공영주차장 설치 및 관리 조례」 or 'the IGU Graduate School Handbook'\n")
    assert [frag for *_, frag in find_test_strings({"m.py": src}, tests)] == [
        "휴학은 최대 몇 학기", "2층 학술정보서비스팀", "한솔구 공영주차장 설치 및 관리 조례", "the IGU Graduate School Handbook"]
