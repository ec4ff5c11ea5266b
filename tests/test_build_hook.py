"""The wheel's build hook (hatch_build.py): what it compiles, and that a build never fails
for want of a compiler, nor compiles an editable install.

That the compiled engine gives the same results as the pure one is checked by CI on a real
build (.ci/compiled): check, golden and simulate --json of every variant and policy."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _hook_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("hatch_build", module)
    spec.loader.exec_module(module)
    return module


hatch_build = _hook_module()


class _App:
    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def display_info(self, message: str) -> None:
        self.said.append(("info", message))

    def display_warning(self, message: str) -> None:
        self.said.append(("warning", message))


def _hook() -> Any:
    hook: Any = object.__new__(hatch_build.CompileEngine)
    hook.__dict__.update(app=_App(), root=str(ROOT))
    return hook


def _build_data() -> dict[str, Any]:
    return {"pure_python": True, "infer_tag": False, "force_include": {}}


def test_every_module_of_the_engine_is_compiled() -> None:
    play = {p.relative_to(ROOT).as_posix() for p in (ROOT / "engine/bouillotte/play").glob("*.py")}
    assert play <= set(hatch_build.COMPILED)
    assert all((ROOT / path).is_file() for path in hatch_build.COMPILED)


def test_every_name_a_compiled_module_binds_once_is_final() -> None:
    """mypyc reads a module's ``Final`` name as a C static and any other module-level name
    through the module's dict, a lookup at every use (a constant read at every step, a
    cache at every deal): each name a compiled module binds at its top level is ``Final``,
    or a type (``TypeAlias``, ``TypeVar``), ``__all__``, or a state a function rebinds
    (``global``). Its share of a row's instructions is measured above 2 % (docs/speed.md),
    and no ruff rule can say it, so it is checked here."""
    import ast

    found = []
    for path in hatch_build.COMPILED:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        rebound = {n for g in ast.walk(tree) if isinstance(g, ast.Global) for n in g.names}
        for node in tree.body:
            if isinstance(node, ast.AnnAssign):
                annotation = ast.unparse(node.annotation)
                if node.value is None or re.match(r"(typing\.)?(Final|TypeAlias)\b", annotation):
                    continue
                names = [ast.unparse(node.target)]
            elif isinstance(node, ast.Assign):
                value = node.value
                if isinstance(value, ast.Call) and ast.unparse(value.func) == "TypeVar":
                    continue
                names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            else:
                continue
            names = [name for name in names if name != "__all__" and name not in rebound]
            found += [f"{path}:{node.lineno} {name}" for name in names]
    assert found == []


def test_an_editable_install_is_never_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("compiled an editable install")

    monkeypatch.setattr(hatch_build, "compile_engine", refuse)
    data = _build_data()
    _hook().initialize("editable", data)
    assert data == _build_data()


def test_bouillotte_pure_installs_the_pure_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("compiled although BOUILLOTTE_PURE is set")

    monkeypatch.setattr(hatch_build, "compile_engine", refuse)
    monkeypatch.setenv("BOUILLOTTE_PURE", "1")
    hook, data = _hook(), _build_data()
    hook.initialize("standard", data)
    assert data == _build_data()
    assert hook.app.said == [
        ("info", "bouillotte: BOUILLOTTE_PURE is set: the engine is not compiled")
    ]


@pytest.mark.parametrize("failure", [OSError("no C compiler"), SystemExit(2)])
def test_a_failed_compile_installs_the_pure_engine_and_says_why(
    monkeypatch: pytest.MonkeyPatch, failure: BaseException
) -> None:
    def fail(*_: object) -> None:
        raise failure

    monkeypatch.setattr(hatch_build, "compile_engine", fail)
    monkeypatch.delenv("BOUILLOTTE_PURE", raising=False)
    hook, data = _hook(), _build_data()
    hook.initialize("standard", data)
    hook.finalize("standard", data, "")
    assert data == _build_data()  # a pure wheel: nothing forced in, the tag not inferred
    kind, message = hook.app.said[-1]
    assert kind == "warning" and type(failure).__name__ in message
    assert "pure-Python engine, which gives the same results" in message


def test_a_compiled_build_ships_each_extension_at_its_place(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    built = tmp_path / "deal.cpython-311-x86_64-linux-gnu.so"
    built.write_bytes(b"")

    def compiled(root: Path, work: Path) -> list[tuple[Path, str]]:
        assert root == ROOT and work.is_dir()
        return [(built, "bouillotte/play/deal.cpython-311-x86_64-linux-gnu.so")]

    monkeypatch.setattr(hatch_build, "compile_engine", compiled)
    monkeypatch.delenv("BOUILLOTTE_PURE", raising=False)
    hook, data = _hook(), _build_data()
    hook.initialize("standard", data)
    assert data["pure_python"] is False and data["infer_tag"] is True
    assert data["force_include"] == {
        str(built): "bouillotte/play/deal.cpython-311-x86_64-linux-gnu.so"
    }
    work = hook._work
    hook.finalize("standard", data, "")
    assert not work.exists()  # the build folder is removed
