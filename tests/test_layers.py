"""The package's shape: no import cycle between its modules.

The layers themselves (cli → site → study → play → rules) are import-linter contracts in
``pyproject.toml``, checked by ``lint-imports`` in CI; this test adds what a layers contract
cannot see: a cycle between two modules of the same layer. An import made only for the type
checker (under ``if TYPE_CHECKING:``) is no cycle: nothing is imported when the code runs.
``play/`` has none even of those (``tests/test_board.py``).
"""

from __future__ import annotations

import grimp


def test_no_module_imports_itself_back() -> None:
    graph = grimp.build_graph("bouillotte", exclude_type_checking_imports=True)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported.startswith("bouillotte.") and not imported.startswith(importer + "."):
                back = graph.find_shortest_chain(importer=imported, imported=importer)
                if back is not None and not importer.startswith(imported + "."):
                    cycles.append(" → ".join((importer, *back)))
    assert cycles == []


MOST_LINES = 600
"""The most lines an engine module may have: past it, a module is doing several jobs
(issue 48: split it by job, each part named for what it holds)."""


def _engine_modules() -> dict[str, int]:
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "engine" / "bouillotte"
    return {
        path.relative_to(package).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(package.rglob("*.py"))
    }


def test_no_engine_module_is_over_600_lines() -> None:
    modules = _engine_modules()
    assert len(modules) > 100  # the package was found
    over = {name: lines for name, lines in modules.items() if lines > MOST_LINES}
    assert over == {}
