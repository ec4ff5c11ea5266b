"""The seam between the board and the state machine (``play/board.py``, ``play/deal.py``).

- The stakes change only through ``Board.put``: no other code of the package writes
  ``contrib``, ``staked`` or ``top_stake`` (a return is a negative put).
- No module of ``play/`` names ``Deal`` for its types: the stages work on the board, so
  ``play/`` has no import cycle even among the imports made for the type checker alone.
- One place changes the deal's stage (``Deal._move_on``), the phase graph being
  ``Deal._follow``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

import bouillotte

PACKAGE = Path(bouillotte.__file__).parent
STAKES = {"contrib", "staked", "top_stake"}


def _writes(tree: ast.AST) -> list[tuple[str, int, str]]:
    """Each write of a stake attribute: (enclosing function, line, attribute)."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef) else function
            targets: list[ast.expr] = []
            line = 0
            if isinstance(child, ast.Assign):
                targets, line = list(child.targets), child.lineno
            elif isinstance(child, ast.AugAssign | ast.AnnAssign):
                targets, line = [child.target], child.lineno
            while targets:
                part = targets.pop()
                if isinstance(part, ast.Tuple):  # a, b.staked = ...
                    targets.extend(part.elts)
                    continue
                if isinstance(part, ast.Subscript):
                    part = part.value  # contrib[seat] = ...
                if isinstance(part, ast.Attribute) and part.attr in STAKES:
                    found.append((name, line, part.attr))
            visit(child, name)

    visit(tree, "")
    return found


def test_the_stakes_change_only_through_put() -> None:
    stray = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for function, line, attr in _writes(ast.parse(path.read_text(encoding="utf-8"))):
            setting_up = path.name == "board.py" and function in ("__init__", "_take_up_board")
            if function != "put" and not setting_up:
                stray.append(f"{path.relative_to(PACKAGE)}:{line} {function}() writes {attr}")
    assert stray == []


def test_the_stakes_check_finds_a_write_behind_put() -> None:
    """The check above sees a write of the old kind (``settlement.give_back`` wrote the
    stakes behind ``put``)."""
    old = "def give_back(deal, seat, chips):\n    deal.contrib[seat] = deal.contrib[seat] - chips\n"
    assert _writes(ast.parse(old)) == [("give_back", 2, "contrib")]


def test_play_has_no_import_cycle_even_for_the_type_checker() -> None:
    graph = grimp.build_graph("bouillotte", exclude_type_checking_imports=False)
    cycles = []
    for importer in sorted(m for m in graph.modules if m.startswith("bouillotte.play.")):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported.startswith("bouillotte.play.") and imported != importer:
                back = graph.find_shortest_chain(importer=imported, imported=importer)
                if back is not None:
                    cycles.append(" → ".join((importer, *back)))
    assert cycles == []
    assert "TYPE_CHECKING" not in "".join(
        path.read_text(encoding="utf-8") for path in (PACKAGE / "play").glob("*.py")
    )


def test_one_place_changes_the_stage() -> None:
    places = []
    for path in sorted((PACKAGE / "play").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and target.attr == "stage":
                        places.append(f"{path.name}:{node.lineno}")
    # __init__ sets the first, _move_on every later one, the copy's is the original's.
    assert len(places) == 3, places
