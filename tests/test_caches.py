"""The engine's process-wide caches are all made by ``play/caches.py``, listed there, and
emptied by its one ``clear``, which changes no result."""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

from bouillotte.play import caches
from bouillotte.rules.profiles import Library
from bouillotte.study import policies  # noqa: F401 - makes its cache
from bouillotte.study.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def _compiled() -> tuple[str, ...]:
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("hatch_build", module)
    spec.loader.exec_module(module)
    return tuple(module.COMPILED)


COMPILED = _compiled()


def _empty_container(node: ast.expr) -> bool:
    """``{}``, ``dict()``, ``[]``, ``set()`` and the like: what is filled after import."""
    if isinstance(node, ast.Dict | ast.List | ast.Set) and not ast.unparse(node).strip("{}[]"):
        return True
    if isinstance(node, ast.Call) and ast.unparse(node.func) in {"dict", "list", "set"}:
        return not node.args and not node.keywords
    if isinstance(node, ast.Tuple):
        return any(_empty_container(item) for item in node.elts)
    return False


def unlisted_caches(source: str) -> list[str]:
    """The module-level names bound to an empty dict, list or set (a cache filled later)
    that are not made by ``cache(...)``."""
    found = []
    targets: list[ast.expr]
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        else:
            continue
        if _empty_container(value):
            found += [ast.unparse(t) for t in targets]
    return found


def test_every_cache_of_a_compiled_module_is_made_by_caches() -> None:
    found = [
        f"{path}: {name}"
        for path in COMPILED
        if not path.endswith("caches.py")
        for name in unlisted_caches((ROOT / path).read_text(encoding="utf-8"))
    ]
    assert found == []


def test_a_cache_made_as_a_bare_dict_is_found() -> None:
    source = "_SEEN: Final[dict[int, int]] = {}\n_PAIR: Final = ({}, cache('x'))\nN: Final = 3\n"
    assert unlisted_caches(source) == ["_SEEN", "_PAIR"]


def test_the_list_in_the_docstring_is_every_cache() -> None:
    for path in COMPILED:  # every compiled module imported: each makes its caches then
        module = path.removeprefix("engine/").removesuffix(".py").replace("/", ".")
        importlib.import_module(module.removesuffix(".__init__"))
    paragraph = (caches.__doc__ or "").split("The caches, each named where it is made:")[1]
    listed = re.findall(r"``(\w+\.\w+)``", paragraph)
    assert sorted(listed) == caches.names()
    assert (
        len(listed) == 9
    )  # dealing.draws and the two seeding generators went with the random stream


def test_a_name_is_made_once() -> None:
    with pytest.raises(ValueError, match=r"dealing\.shuffled"):
        caches.cache("dealing.shuffled")


def test_clear_empties_every_cache_and_changes_no_result() -> None:
    foster = Library().get("foster-five")
    first = simulate(foster, 30, 5, "random")
    held = [name for name in caches.names() if caches._ALL[name]]
    assert {"deal.tables", "dealing.shuffled", "events.records"} <= set(held)
    caches.clear()
    assert all(not caches._ALL[name] for name in caches.names())
    assert simulate(foster, 30, 5, "random") == first


def test_the_compiled_modules_may_not_use_functools_caches() -> None:
    """ruff's banned-api (TID251) is switched off for every module but the compiled ones,
    by one pattern of ``pyproject.toml``: it must name exactly hatch_build.py's list."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    lint = config["tool"]["ruff"]["lint"]
    assert "TID251" in lint["select"]
    assert set(lint["flake8-tidy-imports"]["banned-api"]) == {
        "functools.lru_cache",
        "functools.cache",
    }
    (pattern,) = [p for p, rules in lint["per-file-ignores"].items() if "TID251" in rules]
    assert pattern.startswith("!{") and pattern.endswith("}")
    alternatives = pattern[2:-1].split(",")
    engine = [p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py")]
    banned = {path for path in engine if any(fnmatch.fnmatch(path, a) for a in alternatives)}
    assert banned == set(COMPILED)
