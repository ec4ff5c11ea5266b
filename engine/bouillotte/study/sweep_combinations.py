"""What a sweep varies: the combinations of rule values (``--vary``), or the rules on which
one system differs from another switched one at a time (``--towards``), each checked as a
profile checks it and described in words with the standing of the system it is from."""

from __future__ import annotations

import itertools
import math
import re
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

from ..rules.errors import InputError, quoted
from ..rules.idtext import escaped
from ..rules.nearest import did_you_mean
from ..rules.profile import GROUPS, rule_paths
from ..rules.variant import Variant, differing_rules, value_text
from ..rules.yamlmodels import in_words
from .differences import SESSION_RULES


@dataclass(frozen=True)
class Combination:
    """The base with some rules changed, or a change pydantic refuses (``error``)."""

    label: str
    changes: dict[str, str]
    """Each changed rule with its new value, as text."""
    variant: Variant | None
    error: str | None = None
    rules: tuple[dict[str, str], ...] = ()
    """Each changed rule in words: its value under the base and its new value, each with
    the standing of the system it is from (``documented``, ``inferred``, ``inherited from
    foster — pagat is silent``), where it is from a system."""


@dataclass(frozen=True)
class Skipped:
    rule: str
    reason: str


def _annotation(path: str, option: str = "--vary") -> Any:
    """The type of a rule (``group.field``) or of a part of one (``bonuses.carre.amount``);
    ``option`` is where it was given (``--vary``, or the API's ``vary``)."""
    parts = path.split(".")
    group_names = list(GROUPS)
    if len(parts) not in (2, 3) or parts[0] not in GROUPS:
        raise InputError(
            f"unknown rule {path!r}{did_you_mean(path, rule_paths())}: "
            "a rule is group.field, the groups being " + ", ".join(group_names),
            field=option,
        )
    model: type[BaseModel] | None = GROUPS[parts[0]]
    prefix = parts[0]
    annotation: Any = None
    for part in parts[1:]:
        if model is None or part not in model.model_fields:
            fields = ", ".join(f"{prefix}.{f}" for f in (model.model_fields if model else []))
            raise InputError(
                f"unknown rule {path!r}{did_you_mean(path, rule_paths())}: {prefix} has "
                + (fields or "no parts"),
                field=option,
            )
        annotation = model.model_fields[part].annotation
        prefix = f"{prefix}.{part}"
        nested = isinstance(annotation, type) and issubclass(annotation, BaseModel)
        model = annotation if nested else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        fields = ", ".join(f"{path}.{f}" for f in annotation.model_fields)
        raise InputError(f"{path!r} has parts; vary one of them: {fields}", field=option)
    return annotation


def _constraints(path: str) -> list[Any]:
    """The bounds a profile sets on the value of ``path`` (``ge=0``...), already known to
    name a rule or a part of one (:func:`_annotation`)."""
    parts = path.split(".")
    model: Any = GROUPS[parts[0]]
    metadata: list[Any] = []
    for part in parts[1:]:
        info = model.model_fields[part]
        metadata = list(info.metadata)
        model = info.annotation
    return metadata


def _choices(annotation: Any) -> list[Any] | None:
    """Every value a rule can take, when there are finitely many."""
    if annotation is bool:
        return [False, True]
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    return None


def _describe_type(annotation: Any) -> str:
    choices = _choices(annotation)
    if choices is not None:
        return ", ".join(value_text(c) for c in choices)
    options = (
        get_args(annotation)
        if get_origin(annotation) in (types.UnionType, typing.Union)
        else (annotation,)
    )
    words = []
    for option in options:
        if option is int:
            words.append("a whole number")
        elif option is type(None):
            words.append("none")
        elif get_origin(option) is Literal:
            words.extend(str(a) for a in get_args(option))
    return " or ".join(words) or in_words(annotation)


def _unvaried(path: str, annotation: Any) -> str | None:
    """Why a sweep cannot vary ``path`` (``None``: it can): a sweep plays single deals with
    fresh caves, so a rule acting between deals or on a misdeal never comes into play,
    and a table of values (``table.point_values``) has no spelling on the command line."""
    if path in SESSION_RULES or path.startswith("session."):
        return f"{path} acts between deals; a sweep plays single deals: use bouillotte session"
    if path.startswith("misdeals."):
        return f"{path}: {NO_MISDEAL}"
    if get_origin(annotation) is dict:
        return (
            f"{path} is a table of values: --vary cannot vary it; write a profile that "
            "changes it (extends:) and compare the two"
        )
    return None


def parse_vary(spec: str, option: str = "--vary") -> tuple[str, list[Any]]:
    """``RULE`` (every value of a rule with finitely many) or ``RULE=v1,v2``, each value
    written as the tool writes it (``no``/``yes``, a whole number without a leading zero,
    a named value): ``off``, ``0`` for no, ``05`` or `` none`` are refused, as an empty
    list of values is. ``option`` names where the spec was given in the messages
    (``--vary``, or the API's ``vary``)."""
    path, equals, given = spec.partition("=")
    if any(c.isspace() for c in spec):
        words = "".join(spec.split())
        raise InputError(
            f"a rule and its values hold no space: write {quoted(escaped(words))}", field=option
        )
    annotation = _annotation(path, option)
    refused = _unvaried(path, annotation)
    if refused is not None:
        raise InputError(refused, field=option)
    if not equals:
        choices = _choices(annotation)
        if choices is None:
            raise InputError(
                f"{path} takes {_describe_type(annotation)}: give the values to try, "
                f"as in {_example(option, f'{path}=5,10')}",
                field=option,
            )
        return path, choices
    if not given:
        raise InputError(
            f"{path}= gives no value: give the values to try ({path}=v1,v2), or the rule "
            "alone for every value it can take",
            field=option,
        )
    bounds = _constraints(path)
    # Checked as a profile checks it: the type, and the field's bounds (a bonus is never
    # negative).
    adapter: TypeAdapter[Any] = TypeAdapter(
        Annotated[annotation, *bounds] if bounds else annotation
    )
    values: list[Any] = []
    for text in given.split(","):
        if not text:
            raise InputError(
                f"{path}={given}: a value is empty (a comma too many); it takes "
                f"{_describe_type(annotation)}",
                field=option,
            )
        try:
            value = _validate(adapter, text)
        except ValidationError as exc:
            reason = "; ".join(e["msg"] for e in exc.errors() if e["type"] != "int_parsing")
            raise InputError(
                f"{path} cannot be {quoted(text)}; it takes {_describe_type(annotation)}"
                + (f" ({reason[:1].lower()}{reason[1:]})" if reason else ""),
                field=option,
            ) from None
        if isinstance(value, int) and not isinstance(value, bool) and not _DIGITS.fullmatch(text):
            # pydantic reads "1_000", "+10", "1e3" and "05" as numbers; a typed value is read
            # as strictly as the command line's (cli/options.WHOLE_NUMBER) and a profile's
            # (0100 is text there, not a number)
            raise InputError(
                f"{path} cannot be {quoted(escaped(text))}: write a whole number in the digits "
                "0-9, without a leading zero, of at most 20 digits",
                field=option,
            )
        if value_text(value) != text:
            # pydantic reads "off", "0", "n" and "FALSE" as no: only the words the tool
            # writes are taken
            raise InputError(
                f"{path} cannot be {quoted(escaped(text))}; it takes {_describe_type(annotation)}",
                field=option,
            )
        if any(value == v and type(value) is type(v) for v in values):
            raise InputError(f"{path}: the value {text!r} is given twice", field=option)
        values.append(value)
    return path, values


def _example(option: str, spec: str) -> str:
    """``spec`` as it is given on the command line, or to the API's ``vary``."""
    return f"{option} {spec}" if option.startswith("--") else f"{option}=[{spec!r}]"


_DIGITS = re.compile(r"-?(0|[1-9][0-9]{0,19})")


def _validate(adapter: TypeAdapter[Any], text: str) -> Any:
    try:
        return adapter.validate_python(text)
    except ValidationError:
        if text != "none":
            raise
        return adapter.validate_python(None)


def _apply(base: Variant, changes: dict[str, Any], label: str) -> Combination:
    shown = {path: value_text(value) for path, value in changes.items()}
    by_rule: dict[str, Any] = {}
    for path, value in changes.items():
        parts = path.split(".")
        if len(parts) == 3:
            rule = ".".join(parts[:2])
            current = by_rule.get(rule, base.value(rule))
            by_rule[rule] = current.model_copy(update={parts[2]: value})
        else:
            by_rule[path] = value
    try:
        variant = base.with_values(by_rule, label=label)
    except ValidationError as exc:
        reasons = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())
        return Combination(label, shown, None, f"not a valid system: {reasons}")
    if variant.players != base.players:
        return Combination(
            label, shown, None, "changes the number of players: the deals cannot be the same"
        )
    return Combination(label, shown, variant)


def _current(base: Variant, path: str) -> Any:
    parts = path.split(".")
    value = base.value(".".join(parts[:2]))
    return getattr(value, parts[2]) if len(parts) == 3 else value


def _plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def _parts_that_differ(path: str, mine: Any, theirs: Any) -> dict[str, Any]:
    """A rule made of parts (a bonus) as the parts that differ: ``bonuses.carre.amount``."""
    if isinstance(theirs, BaseModel) and type(mine) is type(theirs):
        return {
            f"{path}.{name}": getattr(theirs, name)
            for name in type(theirs).model_fields
            if _plain(getattr(mine, name)) != _plain(getattr(theirs, name))
        }
    return {path: theirs}


def words(value: Any) -> str:
    """A rule's value in words: ``the-whole-pot`` as ``the whole pot``."""
    return value_text(value).replace("-", " ")


def _standing(variant: Variant, rule: str) -> str:
    try:
        return variant.provenance(rule).label
    except KeyError:
        return "not a rule of the profile"


def _in_words(
    base: Variant, changes: dict[str, Any], other: Variant | None
) -> tuple[dict[str, str], ...]:
    """Each changed rule: the two values in words, and both systems' standing."""
    described = []
    for path, value in changes.items():
        rule = ".".join(path.split(".")[:2])
        described.append(
            {
                "rule": path,
                "from": words(_current(base, path)),
                "from_system": base.id,
                "from_standing": _standing(base, rule),
                "to": words(value),
                "to_system": other.id if other is not None else "--vary",
                "to_standing": _standing(other, rule) if other is not None else "varied",
            }
        )
    return tuple(described)


def _label(changes: dict[str, Any]) -> str:
    return ", ".join(f"{p}={value_text(v)}" for p, v in changes.items())


MAX_COMBINATIONS = 1024
"""The most combinations one ``sweep --vary`` plays (ten rules of two values each; the
full sweep, ``--all-rules``, is about 60)."""


def vary_combinations(
    base: Variant, specs: Sequence[str], option: str = "--vary"
) -> list[Combination]:
    """The product of every ``--vary``'s values, without the base's own combination;
    ``option`` names where the specs were given in the messages (``--vary``, or the API's
    ``vary``)."""
    parsed = [parse_vary(s, option) for s in specs]
    paths = [p for p, _ in parsed]
    twice = next((p for i, p in enumerate(paths) if p in paths[:i]), None)
    if twice is not None:
        raise InputError(
            f"{twice} is given to {option} twice: give it once, with every value to try "
            f"({twice}=v1,v2)",
            field=option,
        )
    # Counted before a single one is made: 22 rules of two values are 4,194,304.
    count = math.prod(len(v) for _, v in parsed)
    if count > MAX_COMBINATIONS:
        sizes = " × ".join(str(len(v)) for _, v in parsed)
        many = f"{len(parsed)} {option}" if option.startswith("--") else f"{len(parsed)} rules"
        asks = "asks" if len(parsed) == 1 else "ask"
        raise InputError(
            f"{many} {asks} for {count:,} combinations ({sizes}); a sweep plays at "
            f"most {MAX_COMBINATIONS:,}: vary fewer rules at once, or give fewer values "
            f"({_example(option, 'RULE=v1,v2')})",
            field=option,
        )
    combinations = []
    for values in itertools.product(*(v for _, v in parsed)):
        changes = dict(zip(paths, values, strict=True))
        if all(_plain(_current(base, p)) == _plain(v) for p, v in changes.items()):
            continue
        made = _apply(base, changes, _label(changes))
        combinations.append(replace(made, rules=_in_words(base, changes, None)))
    return combinations


NO_MISDEAL = "no simulated deal is misdealt (no card is exposed), so it cannot act"

NEVER_READ: dict[str, str] = {
    "table.cut_by": "no simulated deal is cut: the cards are dealt from the shuffled pack, "
    "and the engine never reads who cuts",
}
"""Rules no simulated deal reads, whatever the rules and the players (no code that plays a
deal, ``play/``, names them: ``tests/test_sweep_round6.py`` checks it)."""

STRADDLED: tuple[str, ...] = (
    "forced_bets.straddle_amount",
    "forced_bets.straddle_limit",
    "forced_bets.straddling_ends_at_first_refusal",
    "forced_bets.straddle_must_be_seen",
    "void_deals.nobody_opens_after_straddles",
)
"""Rules read only once somebody has been offered a straddle or has straddled, which no
deal does where ``forced_bets.straddles`` is no (``play/deal.py`` begins the straddles
only then; ``play/settlement.py`` and the seeing read theirs only after a straddle)."""


POT_OPENINGS: tuple[str, ...] = ("as-much-as-the-pot", "exactly-the-pot")
"""The openings under which ``betting.opening_short_of_the_pot`` is read
(``play/betting.py`` reads it only there: its docstring says the rule is not consulted
under any other)."""


def _unread_under(base: Variant, rule: str) -> str | None:
    """Why ``base``'s other rules keep every deal from reading ``rule``, or ``None``."""
    rules = base.rules
    group_and_rule = ".".join(rule.split(".")[:2])  # a part's rule: bonuses.favori.amount
    if rule in STRADDLED and not rules.forced_bets.straddles:
        return (
            f"nobody may straddle under {base.id} (forced_bets.straddles: no), and {rule} "
            "acts only on a straddle"
        )
    if group_and_rule == "bonuses.mistigri" and not rules.hands.mistigri:
        # play/bonuses.py reads a kind's payment for a shown hand of that kind only
        return (
            f"no hand is a brelan de Mistigri under {base.id} (hands.mistigri=no), and "
            f"{rule} pays only such a hand"
        )
    if group_and_rule == "bonuses.favori" and rules.hands.favori == "none":
        return (
            f"no hand is a brelan favori under {base.id} (hands.favori=none), and {rule} "
            "pays only such a hand"
        )
    opening = rules.betting.opening_minimum
    if rule == "betting.opening_short_of_the_pot" and opening not in POT_OPENINGS:
        return (
            f"the opening under {base.id} asks no more than the blind or the largest stake "
            f"(betting.opening_minimum={opening}), and {rule} is read only where it asks "
            "as much as the pot"
        )
    return None


def cannot_be_read(base: Variant, rules: Sequence[str]) -> str | None:
    """Why no deal played under ``base``'s rules can read any of ``rules``, whoever the
    players (a proof from the rules alone: :data:`NEVER_READ`; the straddles' rules where
    nobody may straddle; a brelan de Mistigri's or favori's payment where no hand is one;
    an opening short of the pot where the opening does not ask for the pot); ``None``
    where it is not proven, however few deals read them in a sample. ``rules`` are all
    the rules a combination changes, so a proof that rests on a rule it changes too does
    not hold: that rule is not proven unread, and neither is the combination."""
    reasons = []
    for rule in rules:
        reason = NEVER_READ.get(rule) or _unread_under(base, rule)
        if reason is None:
            return None
        reasons.append(reason)
    return "; ".join(dict.fromkeys(reasons)) or None


def towards_combinations(base: Variant, other: Variant) -> tuple[list[Combination], list[Skipped]]:
    """Each rule on which ``base`` differs from ``other`` switched alone, then all of them
    together; rules that act between deals (and misdeal rules) are skipped, with why."""
    combinations: list[Combination] = []
    skipped: list[Skipped] = []
    switched: dict[str, Any] = {}
    for path in differing_rules(base, other):
        if path in SESSION_RULES:
            skipped.append(Skipped(path, "acts between deals (see `bouillotte session`)"))
            continue
        if path.startswith("misdeals."):
            skipped.append(Skipped(path, NO_MISDEAL))
            continue
        changes = _parts_that_differ(path, base.value(path), other.value(path))
        switched |= changes
        made = _apply(base, changes, _label(changes))
        combinations.append(replace(made, rules=_in_words(base, changes, other)))
    if len(switched) > 1:
        # Its changes and rules name every rule switched, as each other row's do.
        combined = _apply(base, switched, f"all {len(combinations)} rules of {other.id}")
        combinations.append(replace(combined, rules=_in_words(base, switched, other)))
    return combinations, skipped


def finite_rules() -> list[tuple[str, list[Any]]]:
    """Every rule with finitely many values (a yes or no, or one of named values), and
    every such part of a rule made of parts (``bonuses.carre.paid_by``), with its values,
    in schema order."""
    found = []
    for path in rule_paths():
        model: Any = GROUPS[path.split(".")[0]].model_fields[path.split(".")[1]].annotation
        nested = isinstance(model, type) and issubclass(model, BaseModel)
        for part in [f"{path}.{name}" for name in model.model_fields] if nested else [path]:
            choices = _choices(_annotation(part))
            if choices is not None:
                found.append((part, choices))
    return found


ALL_RULES_POLICIES = ("simple", "advised", "bold")
"""The players of the full sweep (``--all-rules``) unless others are named: the plain
player, the one who plays by the sources' advice, and the one who meets every rule a
choice can reach."""


def all_rule_combinations(base: Variant) -> tuple[list[Combination], list[Skipped]]:
    """The full sweep: every rule of finitely many values (:func:`finite_rules`), each of
    its values other than the base's switched alone; rules that act between deals (and
    misdeal rules) are skipped, with why, as :func:`towards_combinations` skips them."""
    combinations: list[Combination] = []
    skipped: list[Skipped] = []
    for path, values in finite_rules():
        rule = ".".join(path.split(".")[:2])
        if rule in SESSION_RULES or rule.startswith("session."):
            skipped.append(Skipped(path, "acts between deals (see `bouillotte session`)"))
            continue
        if rule.startswith("misdeals."):
            skipped.append(Skipped(path, NO_MISDEAL))
            continue
        for value in values:
            if _plain(_current(base, path)) == _plain(value):
                continue
            changes = {path: value}
            made = _apply(base, changes, _label(changes))
            combinations.append(replace(made, rules=_in_words(base, changes, None)))
    return combinations, skipped


def check_playable(base: Variant, combinations: Sequence[Combination]) -> None:
    """Refuse a sweep that would compare nothing: no combination asked for (every one is
    the base itself), or none that can be played (each is not a valid system, or changes
    the number of players) — a table of the base alone, which exited 0 before."""
    if not combinations:
        raise InputError(f"nothing to compare: every combination asked for is {base.id} itself")
    if any(c.variant is not None for c in combinations):
        return
    first = combinations[0]
    others = len(combinations) - 1
    more = f" (and {others} other{'s' if others > 1 else ''}, none playable)" if others else ""
    why = " ".join(str(first.error).split())
    raise InputError(
        f"nothing to compare: no combination asked for can be played; {first.label}: {why}{more}"
    )
