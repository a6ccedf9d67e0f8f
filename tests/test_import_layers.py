"""The stages import downward only, and no modules import each other in a circle (issue 27; docs/design.md § 1).

Every `import geunkeo…` in src/geunkeo is read from the source (function-level imports included, and
`TYPE_CHECKING` ones: a type from above is still an arrow up). The order, lowest first, settled from the code:

    text < corpus < index < llm < checks < query < retrieve < answer < engine < evaluate < front ends

- `text` analyses for everyone; `corpus` loads and chunks with it; `index` embeds and stores chunks.
- `llm` is a client that imports no stage; `checks` (claim splitting, support checker, similarity, judge) needs
  `index` embedders and the `llm` judge, and sits below both of its users, `answer` and `evaluate`.
- `query` may call the LLM (multi-query, HyDE); `retrieve` runs a plan over the index; `answer` cites hits.
- `engine` is the composition root over search and answer; `evaluate` opens an Engine to run a dataset, as the
  front ends (`cli`, `server`, `demo`, the package `__init__`) do.
`config`, `errors` and `trace` are shared by all and import no stage.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "geunkeo"
ORDER = ["text", "corpus", "index", "llm", "checks", "query", "retrieve", "answer", "engine", "evaluate"]
FRONT_ENDS = {"cli", "server", "demo", "__init__"}
SHARED = {"config", "errors", "trace"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The geunkeo modules `path` imports (a `from pkg import name` counts as pkg.name when that is a module)."""
    here = _module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1] + [node.module or ""]) if node.level \
                else node.module or ""
            base = base.rstrip(".")
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names if _exists(f"{base}.{a.name}"))
    return {m for m in found if m == "geunkeo" or m.startswith("geunkeo.")}


def _exists(module: str) -> bool:
    rel = Path(*module.split(".")[1:])
    return (SRC / rel).with_suffix(".py").is_file() or (SRC / rel / "__init__.py").is_file()


@functools.cache  # the sources do not change during a run; each test read and parsed all of them (~2 s)
def _graph() -> dict[str, set[str]]:
    return {_module_name(p): {m for m in _imports(p) if _exists(m)} for p in sorted(SRC.rglob("*.py"))}


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_stage_package_has_a_place_in_the_order():
    tops = {_stage(m) for m in _graph()} - {"geunkeo"}
    assert tops <= set(ORDER) | FRONT_ENDS | SHARED, f"place these in ORDER (and docs/design.md): " \
                                                     f"{sorted(tops - set(ORDER) - FRONT_ENDS - SHARED)}"


def test_no_stage_imports_a_stage_above_it():
    rank = {name: i for i, name in enumerate(ORDER)}
    upward = sorted(f"{mod} -> {dep}" for mod, deps in _graph().items() for dep in deps
                    if _stage(mod) in rank and (_stage(dep) in FRONT_ENDS or rank.get(_stage(dep), -1) > rank[
                        _stage(mod)]))
    shared = sorted(f"{mod} -> {dep}" for mod, deps in _graph().items() for dep in deps
                    if _stage(mod) in SHARED and _stage(dep) not in SHARED)
    assert not upward, f"imports from a stage to one above it: {upward}"
    assert not shared, f"config, errors and trace must import no stage: {shared}"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_between_stage_packages():
    packages: dict[str, set[str]] = {}
    for mod, deps in _graph().items():
        packages.setdefault(_stage(mod), set()).update(_stage(d) for d in deps if _stage(d) != _stage(mod))
    assert not _cycles(packages), f"stage packages importing each other: {_cycles(packages)}"


def test_no_import_cycle_between_modules():
    # a package's __init__ importing its own modules is how a package exposes them, not a circle
    graph = {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in _graph().items()}
    assert not _cycles(graph), f"modules importing each other: {_cycles(graph)}"


def test_the_checks_see_the_arrows_they_guard():
    # the scan must find real imports, or every test above would pass on an empty graph
    graph = _graph()
    assert "geunkeo.checks.support" in graph["geunkeo.answer.verify"]
    assert "geunkeo.engine" in graph["geunkeo.evaluate.runner"]  # a function-level import
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
