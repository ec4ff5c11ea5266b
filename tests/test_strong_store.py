"""The stored strategies are current: each file's name is the address its inputs give
today (the profile's rules, the abstraction, the code a state runs through, the
iterations). A change to ``play/`` (or ``rules/cards.py``, ``strong/core.py``,
``strong/abstraction.py``) makes them stale; this says which and the command that
regenerates each. Digests only: no solving, no OpenSpiel."""

from __future__ import annotations

from bouillotte.strong.abstraction import Abstraction
from bouillotte.strong.core import load_variant
from bouillotte.strong.store import address, code_digest, rules_digest, stored


def _command(data: dict[str, object]) -> str:
    ab = data["abstraction"]
    assert isinstance(ab, dict)
    return (
        f"bouillotte strong solve -v {data['variant']} --cave {ab['cave']} "
        f"--bets {'+'.join(ab['bets']) or 'all'} --raises {ab['raises']} "
        f"--{'' if ab['straddles'] else 'no-'}straddles --deals {ab['deals']} "
        f"--classes {ab['classes']} --seed {ab['seed']} --iterations {data['iterations']} --write"
    )


def test_every_stored_strategy_is_current() -> None:
    found = stored()
    assert found, "no stored strategy at all"
    code = code_digest()
    stale = []
    for data in found:
        ab = data["abstraction"]
        abstraction = Abstraction(
            cave=ab["cave"],
            bets=tuple(ab["bets"]),
            raises=ab["raises"],
            straddles=ab["straddles"],
            deals=ab["deals"],
            classes=ab["classes"],
            seed=ab["seed"],
        )
        variant = load_variant(data["variant"])
        expected = address(variant, abstraction, data["iterations"]).name
        if (
            data["code"] != code
            or data["rules"] != rules_digest(variant)
            or data["file"] != expected
        ):
            stale.append(f"{data['file']} (now {expected}): {_command(data)}")
    assert not stale, "stale stored strategies; regenerate and delete the old files:\n" + "\n".join(
        stale
    )
