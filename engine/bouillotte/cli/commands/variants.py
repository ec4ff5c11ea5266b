"""``bouillotte variants list|show|diff``: the variant profiles, their rules and citations."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ...rules.errors import InputError, shown
from ...rules.listing import variant_rows
from ...study import render
from ..options import (
    CsvFile,
    JsonFlag,
    VariantsDirs,
    check_tidy_targets,
    command_app,
    complete_variant,
    print_json,
    write_csv,
)

if TYPE_CHECKING:  # imported where used: `variants list` reads its rows without them
    from ...rules.profiles import Library
    from ...rules.variant import Variant

cli = command_app(help="List, show and compare the variant profiles.", no_args_is_help=True)


def _library(dirs: list[Path] | None) -> Library:
    from ...rules.profiles import Library

    return Library(dirs or [])


@cli.command("list")
def variants_list(
    variants: VariantsDirs = None, as_json: JsonFlag = False, csv_file: CsvFile = None
) -> None:
    """List every variant: id, title, players, main source.

    Example:  bouillotte variants list --json
    Example:  bouillotte variants list --csv -   (a row per system, with its pack's size)
    """
    check_tidy_targets(csv_file, as_json)
    if csv_file is not None:
        from ...study.tidy_lists import systems_table

        write_csv(csv_file, systems_table(_library(variants).all()))
        if str(csv_file) == "-":
            return
    rows = variant_rows(variants or [])  # from the cache when the profiles are unchanged
    if as_json:
        print_json(rows)
        return
    typer.echo(
        render.table(
            ["id", "players", "source", "extends", "title"],
            [[r["id"], r["players"], r["source"], r["extends"] or "", r["title"]] for r in rows],
        )
    )


def _rule_json(variant: Variant, path: str, library: Library) -> dict[str, Any]:
    from ...rules.profile import rule_doc
    from ...rules.readings import reading_json, reading_of

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


@cli.command("show")
def variants_show(
    variant_id: Annotated[
        str, typer.Argument(help="A variant id.", autocompletion=complete_variant)
    ],
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """Every rule of one variant with its value and citation; inherited rules are marked.

    Example:  bouillotte variants show foster-three
    Example:  bouillotte variants show foster --csv -   (a row per rule: the matrix's rows)
    """
    from ...rules.profile import GROUPS, rule_paths
    from ...rules.readings import READING_MARK
    from ...rules.variant import value_text

    check_tidy_targets(csv_file, as_json)
    library = _library(variants)
    variant = library.get(variant_id)
    if csv_file is not None:
        from ...site.tidydata import matrix_table

        write_csv(csv_file, matrix_table([variant]))
        if str(csv_file) == "-":
            return
    rules = [_rule_json(variant, p, library) for p in rule_paths()]
    if as_json:
        print_json(
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
    elif any(r["inherited_from"] for r in rules):  # a flattened profile (variants export)
        typer.echo("flattened (variants export): rules inherited from another system are marked ^")
        silent = [p for p in rule_paths() if variant.info[p].silent]
        if silent:
            open_rules = render.counted(len(silent), "rule")
            typer.echo(f"{variant.source} leaves {open_rules} open: {', '.join(silent)}")
    current = ""
    for rule in rules:
        group = rule["rule"].split(".")[0]
        if group != current:
            current = group
            typer.echo(f"\n[{group}] {(GROUPS[group].__doc__ or '').strip()}")
        mark = "^" if rule["inherited_from"] else " "
        typer.echo(
            f" {mark} {rule['rule']} = {value_text(variant.value(rule['rule']))}  "
            f"{_badge(variant, rule['rule'])}"
        )
        typer.echo(f"      means: {_meaning(rule['rule'])}")
        typer.echo("\n".join(_citation_lines(variant, rule["rule"])))
        if rule["readings"]:
            typer.echo(f"      ({READING_MARK})")


def _meaning(path: str) -> str:
    """What a rule means, in one line: its title and its field's docstring in the profile
    schema, without the ``Sources:`` paragraphs (the badge and the citation give those)."""
    from ...rules.profile import rule_doc, rule_title
    from ...study.render import plain

    title, doc = rule_title(path), plain(rule_doc(path, sources=False))
    return doc if doc.startswith(f"{title}:") else f"{title}: {doc}"


def _badge(variant: Variant, path: str) -> str:
    """A rule's provenance as ``variants show/diff`` print it."""
    from ...rules.variant import Standing

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


@cli.command("diff")
def variants_diff(
    first: Annotated[str, typer.Argument(help="A variant id.", autocompletion=complete_variant)],
    second: Annotated[
        str, typer.Argument(help="Another variant id.", autocompletion=complete_variant)
    ],
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """The rules on which two variants differ, side by side, each with its citation.

    Example:  bouillotte variants diff foster pagat
    Example:  bouillotte variants diff foster pagat --csv -   (a row per rule and system)
    """
    from ...rules.profile import rule_doc
    from ...rules.readings import READING_MARK, reading_of
    from ...rules.variant import differing_rules, value_text

    check_tidy_targets(csv_file, as_json)
    library = _library(variants)
    a, b = library.get(first), library.get(second)
    if a.id == b.id:  # "0 rules differ" would read as two systems that agree on everything
        raise InputError(f"nothing to compare: FIRST and SECOND are both {a.id}; name two systems")
    paths = differing_rules(a, b)
    if csv_file is not None:
        from ...site.tidydata import matrix_table

        write_csv(csv_file, matrix_table([a, b], paths, "diff"))
        if str(csv_file) == "-":
            return
    if as_json:
        print_json(
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
    verb = "differs" if len(paths) == 1 else "differ"
    typer.echo(f"{render.counted(len(paths), 'rule')} {verb} between {a.id} and {b.id}:")
    for path in paths:
        described = render.plain(rule_doc(path).split("\n\n")[0])
        typer.echo("\n" + render.wrapped(f"{path} — {described}", "    ", ""))
        for v in (a, b):
            typer.echo(f"  {v.id}: {value_text(v.value(path))}  {_badge(v, path)}")
            for line in _citation_lines(v, path):
                typer.echo(render.wrapped(line.strip(), "        ", "      "))
        if any(reading_of(library.readings, path, v.value(path)) for v in (a, b)):
            typer.echo(f"  ({READING_MARK})")


@cli.command("export")
def variants_export(
    variant_id: Annotated[
        str, typer.Argument(help="A variant id.", autocompletion=complete_variant)
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="The folder to write ID.yaml into (made if need be; no file in it is "
            "overwritten). Without it, the profile is printed on stdout.",
            file_okay=False,
        ),
    ] = None,
    standalone: Annotated[
        bool,
        typer.Option(
            "--standalone",
            help="Also write sources.yaml with the works the profile cites and their texts "
            "(texts/), so that the folder reads with --no-bundled. Needs --out.",
        ),
    ] = False,
    as_id: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="NEW_ID",
            help="The id (file name) to write it under, e.g. to use it beside the bundled "
            "profile it comes from.",
        ),
    ] = None,
    variants: VariantsDirs = None,
) -> None:
    """A profile with every rule stated: inheritance flattened, each citation kept, each
    inherited value marked inherited_from its system (docs/profiles.md).

    Example:  bouillotte variants export foster-three --standalone --out mine/variants
    """
    from ...rules.export import export, replaces_another, write_export
    from ...rules.idtext import folded_id
    from ...rules.profiles import profile_id_fault
    from ...rules.resources import bundled

    if standalone and out is None:
        raise InputError("--standalone writes several files: give the folder with --out DIR")
    fault = None if as_id is None else profile_id_fault(as_id)
    if fault is not None:  # the rule of every command that will read the file written
        raise InputError(f"--as must be a profile's id: {fault}")
    library = _library(variants)
    taken = (
        None
        if as_id is None
        else next(
            (
                file.stem
                for file in bundled("variants").glob("*.yaml")
                if folded_id(file.stem) == folded_id(as_id)
            ),
            None,
        )
    )
    if taken is not None and not (as_id == variant_id and replaces_another(library, variant_id)):
        # --as names the file to use beside the bundled library: a bundled id never is one,
        # not even the profile's own (foster --as foster), which every command then refuses
        alike = "" if taken == as_id else f" (but for case: {taken})"
        own = (
            f"; without --as, {variant_id}.yaml is written for a site of your own systems "
            "only (site build --no-bundled)"
            if as_id == variant_id
            else ""
        )
        raise InputError(
            f"--as {as_id}: that is the id of a bundled profile{alike}, so every command "
            "reading the profile written beside the bundled library would refuse it; "
            f"choose an id of your own{own}",
            value=as_id,
            has_value=True,
        )
    done = export(library, variant_id, standalone=standalone, as_id=as_id)
    if out is None:
        typer.echo(next(iter(done.files.values())).decode("utf-8"), nl=False)
        return
    for path in write_export(done, out):
        typer.echo(f"wrote {shown(path)}", err=True)
    for note in done.notes:
        typer.echo(note, err=True)
