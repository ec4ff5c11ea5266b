"""Compile the engine's hot path with mypyc when a wheel is built (``pip install .``).

The engine is plain typed Python, and stays the one source of truth: these modules are
compiled as they are, with no second implementation, and give the same results to the
byte (CI compares ``check``, ``golden`` and ``simulate --json`` of both builds). Compiled,
a simulated deal costs a third to a half as much (README, "Speed").

- An editable install (``pip install -e .``, what developers and the tests use) is never
  compiled, so an edit to a ``.py`` file always takes effect.
- ``BOUILLOTTE_PURE=1 pip install .`` installs the pure-Python engine on purpose.
- Where compiling fails (no C compiler, no Python headers, an unsupported Python), the
  build says why and installs the pure-Python engine: slower, never different.

``python hatch_build.py DIR`` compiles the modules of the checkout at DIR in place (the
``.so`` files beside the ``.py`` files): ``benchmarks/revisions.py --compiled`` uses it to
measure a compiled revision from its own worktree.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

COMPILED = (
    "engine/bouillotte/rules/cards.py",
    "engine/bouillotte/play/__init__.py",
    "engine/bouillotte/play/actions.py",
    "engine/bouillotte/play/betting.py",
    "engine/bouillotte/play/board.py",
    "engine/bouillotte/play/bonuses.py",
    "engine/bouillotte/play/caches.py",
    "engine/bouillotte/play/closing.py",
    "engine/bouillotte/play/deal.py",
    "engine/bouillotte/play/dealing.py",
    "engine/bouillotte/play/decides.py",
    "engine/bouillotte/play/draw.py",
    "engine/bouillotte/play/events.py",
    "engine/bouillotte/play/hands.py",
    "engine/bouillotte/play/outcome.py",
    "engine/bouillotte/play/phases.py",
    "engine/bouillotte/play/point.py",
    "engine/bouillotte/play/pots.py",
    "engine/bouillotte/play/seeing.py",
    "engine/bouillotte/play/settlement.py",
    "engine/bouillotte/play/showdown.py",
    "engine/bouillotte/play/straddles.py",
    "engine/bouillotte/play/stream.py",
    "engine/bouillotte/study/autoplay.py",
    "engine/bouillotte/study/chain_points.py",
    "engine/bouillotte/study/deal_streams.py",
    "engine/bouillotte/study/hand_worth.py",
    "engine/bouillotte/study/player_view.py",
    "engine/bouillotte/study/policies.py",
    "engine/bouillotte/study/policy_actions.py",
    "engine/bouillotte/study/simple_policies.py",
    "engine/bouillotte/study/simulate.py",
    "engine/bouillotte/study/situations.py",
    "engine/bouillotte/study/table_policy.py",
    "engine/bouillotte/study/tally.py",
    "engine/bouillotte/study/void_chain.py",
    "engine/bouillotte/study/sweep.py",
)
"""The modules a simulated deal runs through: the whole engine (``play/``), the card
notation, the policies and the driver that plays them, the simulation loop (a deal's
streams, its chain of void deals, what it is counted as and the tally) and the sweep's
(each deal under every rule set, and its tallies). Everything else (loading profiles, the
site, the command line) spends its time in libraries, and stays interpreted."""

_MYPY_CONFIG = """\
[mypy]
ignore_missing_imports = True
follow_imports = silent
"""
"""mypyc type-checks what it compiles. The build environment has mypy but not pydantic or
PyYAML, so the profile's models are typed ``Any`` there (read as Python objects, as they
are anyway); the strict check of the whole code is CI's own ``mypy`` run."""


def compile_engine(root: Path, work: Path) -> list[tuple[Path, str]]:
    """Compile :data:`COMPILED` of the checkout at ``root``, building in ``work``; returns
    each extension built, with its path inside the package tree (``bouillotte/...``)."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    config = work / "mypy.ini"
    config.write_text(_MYPY_CONFIG, encoding="utf-8")
    here = Path.cwd()
    os.chdir(root / "engine")  # module names are read from the paths: bouillotte.play...
    try:
        sources = [str(Path(path).relative_to("engine")) for path in COMPILED]
        extensions = mypycify(
            ["--config-file", str(config), "--cache-dir", str(work / "mypy-cache"), *sources],
            opt_level="3",
            target_dir=str(work / "c"),
        )
        dist = Distribution({"name": "bouillotte", "ext_modules": extensions})
        command: Any = dist.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "temp")
        command.ensure_finalized()
        command.run()
        built = [Path(output) for output in command.get_outputs()]
    finally:
        os.chdir(here)
    return [(path, path.relative_to(work / "lib").as_posix()) for path in built]


def compile_in_place(root: Path) -> list[str]:
    """Compile the checkout at ``root`` and put each extension beside its source."""
    with tempfile.TemporaryDirectory(prefix="bouillotte-mypyc-") as folder:
        built = compile_engine(root, Path(folder))
        for path, inside in built:
            shutil.copy2(path, root / "engine" / inside)
    return [inside for _, inside in built]


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script, outside a build
    BuildHookInterface = object


class CompileEngine(BuildHookInterface):
    """The wheel's build hook (``[tool.hatch.build.targets.wheel.hooks.custom]``)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        if os.environ.get("BOUILLOTTE_PURE", "") not in ("", "0"):
            self.app.display_info("bouillotte: BOUILLOTTE_PURE is set: the engine is not compiled")
            return
        work = Path(tempfile.mkdtemp(prefix="bouillotte-mypyc-"))
        self._work = work
        self.app.display_info(f"bouillotte: compiling {len(COMPILED)} engine modules with mypyc")
        try:
            built = compile_engine(Path(self.root), work)
        except (Exception, SystemExit) as error:  # mypyc exits on a type error
            reason = (str(error).splitlines() or [""])[0][:200]
            self.app.display_warning(
                f"bouillotte: the engine could not be compiled ({type(error).__name__}: "
                f"{reason}); installing the pure-Python engine, which gives the same results, "
                "more slowly"
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path, inside in built:
            build_data["force_include"][str(path)] = inside

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python hatch_build.py CHECKOUT  (compiles it in place)")
    try:
        import mypyc  # noqa: F401 - only to say clearly what is missing
    except ImportError:
        raise SystemExit(
            "hatch_build.py: mypyc is missing (it comes with mypy: pip install -e '.[test]')"
        ) from None
    for name in compile_in_place(Path(sys.argv[1]).resolve()):
        print(name)
