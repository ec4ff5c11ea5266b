"""The package's shape: no import cycle between its modules.

The layers themselves (cli → site → study → play → rules) are import-linter contracts in
``pyproject.toml``, checked by ``lint-imports`` in CI; this test adds what a layers contract
cannot see: a cycle between two modules of the same layer.
"""

from __future__ import annotations

import grimp


def test_no_module_imports_itself_back() -> None:
    graph = grimp.build_graph("bouillotte")
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported.startswith("bouillotte.") and not imported.startswith(importer + "."):
                back = graph.find_shortest_chain(importer=imported, imported=importer)
                if back is not None and not importer.startswith(imported + "."):
                    cycles.append(" → ".join((importer, *back)))
    assert cycles == []
