"""The ``bouillotte`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..rules.errors import InputError
from ..rules.profile import GROUPS, rule_doc, rule_paths
from ..rules.profiles import Library
from ..rules.readings import READING_MARK, reading_json, reading_of
from ..rules.variant import Standing, Variant, differing_rules
from ..study import render
from ..study.check import check
from ..study.compare import compare
from ..study.scenario import ScenarioLibrary, run_scenario
from .commands import register_all
from .options import JsonFlag, ScenarioDirs, VariantsDirs, friendly

app = typer.Typer(
    help=(
        "Compare the historical rule systems of Bouillotte (Brelan).\n\n"
        "Each system is a YAML variant profile with a citation for every rule; one engine "
        "plays any deal under any profile.\n\n"
        "Start with:  bouillotte variants list   ·   bouillotte compare foster-sight\n\n"
        "YAML files are read within limits (docs/contracts.md): at most 1 MiB, 20,000 values "
        "once aliases are expanded, 64 levels deep. Bad input exits 2 with one line naming "
        "the file, line, field and value; Ctrl-C exits 130."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
)
variants_app = typer.Typer(
    help="List, show and compare the variant profiles.", no_args_is_help=True
)
app.add_typer(variants_app, name="variants")


def _complete_variant(incomplete: str) -> list[str]:
    try:
        return [v for v in Library().ids() if v.startswith(incomplete)]
    except InputError:
        return []


def _complete_scenario(incomplete: str) -> list[str]:
    try:
        return [s.id for s in ScenarioLibrary().all() if s.id.startswith(incomplete)]
    except InputError:
        return []


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


def _library(dirs: list[Path] | None) -> Library:
    return Library(dirs or [])


# -- variants -------------------------------------------------------------------------


@variants_app.command("list")
@friendly
def variants_list(variants: VariantsDirs = None, as_json: JsonFlag = False) -> None:
    """List every variant: id, title, players, main source.

    Example:  bouillotte variants list --json
    """
    library = _library(variants)
    rows = [
        {
            "id": v.id,
            "title": v.title,
            "players": v.players,
            "source": v.source,
            "extends": v.extends,
        }
        for v in library.all()
    ]
    if as_json:
        _print_json(rows)
        return
    typer.echo(
        render.table(
            ["id", "players", "source", "extends", "title"],
            [[r["id"], r["players"], r["source"], r["extends"] or "", r["title"]] for r in rows],
        )
    )


def _rule_json(variant: Variant, path: str, library: Library) -> dict[str, Any]:
    info = variant.info[path]
    value = variant.value(path)
    reading = reading_of(library.readings, path, value)
    return {
        "readings": reading_json(reading, value) if reading else None,
        "rule": path,
        "value": value.model_dump() if hasattr(value, "model_dump") else value,
        "inherited_from": info.defined_in if info.is_inherited(variant.id) else None,
        "silent_in_source": info.silent,
        "provenance": variant.provenance(path).to_json(),
        "citation": info.citation.model_dump(exclude_none=True) if info.citation else None,
        "doc": rule_doc(path),
    }


@variants_app.command("show")
@friendly
def variants_show(
    variant_id: Annotated[
        str, typer.Argument(help="A variant id.", autocompletion=_complete_variant)
    ],
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """Every rule of one variant with its value and citation; inherited rules are marked.

    Example:  bouillotte variants show foster-three
    """
    library = _library(variants)
    variant = library.get(variant_id)
    rules = [_rule_json(variant, p, library) for p in rule_paths()]
    if as_json:
        _print_json(
            {
                "id": variant.id,
                "title": variant.title,
                "source": variant.source,
                "extends": variant.extends,
                "players": variant.players,
                "rules": rules,
            }
        )
        return
    typer.echo(f"{variant.id}: {variant.title}  (source: {variant.source})")
    typer.echo(
        "each rule's badge says how its source stands behind it: [stated: …] the source says "
        "so, [inferred: …] our reading, [inherited from … — … is silent] the source says "
        "nothing and another profile's value stands in"
    )
    if variant.extends:
        typer.echo(f"extends {variant.extends}; rules stated in an ancestor profile are marked ^")
        silent = [p for p in rule_paths() if variant.info[p].silent]
        if silent:
            typer.echo(f"{variant.source} leaves {len(silent)} rules open: {', '.join(silent)}")
    current = ""
    for rule in rules:
        group = rule["rule"].split(".")[0]
        if group != current:
            current = group
            typer.echo(f"\n[{group}] {(GROUPS[group].__doc__ or '').strip()}")
        mark = "^" if rule["inherited_from"] else " "
        typer.echo(
            f" {mark} {rule['rule']} = {render.value_text(variant.value(rule['rule']))}  "
            f"{_badge(variant, rule['rule'])}"
        )
        typer.echo("\n".join(_citation_lines(variant, rule["rule"])))
        if rule["readings"]:
            typer.echo(f"      ({READING_MARK})")


def _badge(variant: Variant, path: str) -> str:
    """A rule's provenance as ``variants show/diff`` print it."""
    provenance = variant.provenance(path)
    if provenance.standing in (Standing.STATED, Standing.INFERRED):
        if provenance.status == provenance.standing.value:
            return f"[{provenance.status}]"
        return f"[{provenance.standing.value}: {provenance.status}]"
    return f"[{provenance.label}]"


def _citation_lines(variant: Variant, path: str) -> list[str]:
    """The citation under a rule: the source's words, and why, for a value we read."""
    lines = [f"      {variant.cite(path)}"]
    citation = variant.citation(path)
    if citation is not None and citation.reason and citation.quote:
        lines.append(f"      why: {citation.reason}")
    return lines


@variants_app.command("diff")
@friendly
def variants_diff(
    first: Annotated[str, typer.Argument(help="A variant id.", autocompletion=_complete_variant)],
    second: Annotated[
        str, typer.Argument(help="Another variant id.", autocompletion=_complete_variant)
    ],
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """The rules on which two variants differ, side by side, each with its citation.

    Example:  bouillotte variants diff foster pagat
    """
    library = _library(variants)
    a, b = library.get(first), library.get(second)
    paths = differing_rules(a, b)
    if as_json:
        _print_json(
            {
                "first": a.id,
                "second": b.id,
                "differences": [
                    {"rule": p, a.id: _rule_json(a, p, library), b.id: _rule_json(b, p, library)}
                    for p in paths
                ],
            }
        )
        return
    typer.echo(f"{len(paths)} rules differ between {a.id} and {b.id}:")
    for path in paths:
        typer.echo(f"\n{path} — {rule_doc(path).splitlines()[0]}")
        for v in (a, b):
            typer.echo(f"  {v.id}: {render.value_text(v.value(path))}  {_badge(v, path)}")
            typer.echo("\n".join(_citation_lines(v, path)))
        if any(reading_of(library.readings, path, v.value(path)) for v in (a, b)):
            typer.echo(f"  ({READING_MARK})")


# -- schema ---------------------------------------------------------------------------


@app.command("schema")
@friendly
def schema_command(
    kind: Annotated[
        str, typer.Argument(help="'profile' or 'scenario'.", show_default=True)
    ] = "profile",
) -> None:
    """Print the JSON Schema of profile or scenario files, for editors.

    Example:  bouillotte schema profile > profile.schema.json
    """
    from ..study.schema import profile_schema, scenario_schema

    if kind not in ("profile", "scenario"):
        raise InputError("the schema is 'profile' or 'scenario'", value=kind, has_value=True)
    _print_json(profile_schema() if kind == "profile" else scenario_schema())


# -- scenarios ------------------------------------------------------------------------


@app.command("run")
@friendly
def run_command(
    scenario: Annotated[
        str,
        typer.Argument(help="A scenario id or a YAML file.", autocompletion=_complete_scenario),
    ],
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="Run under this variant (repeatable; default: every variant it lists).",
            autocompletion=_complete_variant,
        ),
    ] = None,
    variants: VariantsDirs = None,
    scenarios: ScenarioDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """Play one scenario (a deal and its actions) and settle it.

    An action a variant forbids is not a crash: the result is 'illegal' with the step,
    the rule and its citation (in the JSON too); the refused action is also reported on
    stderr with its file and line, and the exit status is 2.

    Example:  bouillotte run foster-sight --variant foster --json
    """
    library = _library(variants)
    found = ScenarioLibrary(scenarios or []).find(scenario)
    ids = variant or found.variant_ids(library)
    found.variant_ids(library)  # the file's own list of variants must name known ones
    results = [run_scenario(found, library.get(v)) for v in ids]
    if as_json:
        _print_json(results[0].data if len(results) == 1 else [r.data for r in results])
    else:
        for result in results:
            typer.echo(render.run_text(result.data, found.model.title))
            typer.echo("")
    refusals = [r for r in results if r.refusal() is not None]
    for result in refusals:
        typer.echo(f"error: {result.refusal()}", err=True)
    if refusals:
        raise typer.Exit(2)


@app.command("compare")
@friendly
def compare_command(
    scenario: Annotated[
        list[str],
        typer.Argument(help="Scenario ids or YAML files.", autocompletion=_complete_scenario),
    ],
    only: Annotated[
        str | None,
        typer.Option("--only", help="Comma-separated variant ids to compare (default: all)."),
    ] = None,
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variants",
            help="Either a folder of your own profiles (repeatable) or, like --only, "
            "comma-separated variant ids to compare.",
        ),
    ] = None,
    scenarios: ScenarioDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """Run scenarios under every variant side by side and name the rules that differ.

    Cells that differ from the first variant are marked with '*'; below the table, the
    rules whose change alone turns the first variant's outcome into another's.

    Example:  bouillotte compare foster-sight --variants foster,pagat
    """
    folders = [Path(v) for v in variants or [] if Path(v).is_dir()]
    ids = [i.strip() for v in variants or [] if not Path(v).is_dir() for i in v.split(",")]
    ids += [v.strip() for v in only.split(",")] if only else []
    library = _library(folders)
    store = ScenarioLibrary(scenarios or [])
    chosen = [i for i in ids if i] or None
    comparisons = [compare(store.find(name), library, chosen) for name in scenario]
    if as_json:
        data = [c.to_json() for c in comparisons]
        _print_json(data[0] if len(data) == 1 else data)
        return
    from .compare_text import comparison_text

    for comparison in comparisons:
        typer.echo(comparison_text(comparison))
        typer.echo("")


@app.command("check")
@friendly
def check_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Scenario files or folders (default: the bundled library)."),
    ] = None,
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """Run every scenario under every variant it lists and verify its 'expect' blocks.

    Exits 1 if any outcome differs from what a scenario expects (or 2 for bad input).

    Example:  bouillotte check scenarios/
    """
    library = _library(variants)
    store = ScenarioLibrary(paths or [], include_bundled=not paths)
    report = check(store.all(), library)
    if as_json:
        _print_json(
            {
                "runs": report.runs,
                "checked": report.checked,
                "unchecked": [list(u) for u in report.unchecked],
                "mismatches": [m.describe() for m in report.mismatches],
                "errors": [e.describe() for e in report.errors],
            }
        )
    else:
        for error in report.errors:
            typer.echo(f"error: {error.describe()}", err=True)
        for mismatch in report.mismatches:
            typer.echo(f"mismatch: {mismatch.describe()}", err=True)
        typer.echo(
            f"{report.runs} runs of {len(store.all())} scenarios: {report.checked} checked, "
            f"{len(report.mismatches)} mismatches, {len(report.errors)} errors, "
            f"{len(report.unchecked)} without an expect block"
        )
    if report.errors:
        raise typer.Exit(2)
    if report.mismatches:
        raise typer.Exit(1)


register_all(app)


def main() -> None:
    try:
        app()
    except InputError as exc:  # raised outside a command (completion, option parsing)
        typer.echo(f"error: {exc.describe()}", err=True)
        sys.exit(2)
