"""The stored strategies are current: each file's name is the address its declared inputs
give today (the profile's rules, the abstraction, the game's version, the iterations), and
a small sample of its game, walked again through today's engine, is the one it was solved
on. A change to what a state of the game does (not a comment or a faster loop in
``play/``) fails here; this says which file and the command that regenerates it. No
solving, no OpenSpiel (numpy walks the sample)."""

from __future__ import annotations

from bouillotte.strong.abstraction import Abstraction
from bouillotte.strong.core import load_variant
from bouillotte.strong.solve import game_sample
from bouillotte.strong.store import GAME_VERSION, address, rules_digest, stored


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
    stale = []
    for data in found:
        ab = data["abstraction"]
        abstraction = Abstraction.from_record(ab)
        variant = load_variant(data["variant"])
        expected = address(variant, abstraction, data["iterations"]).name
        if (
            data["game_version"] != GAME_VERSION
            or data["game_sample"] != game_sample(variant, abstraction)
            or data["rules"] != rules_digest(variant)
            or data["file"] != expected
        ):
            stale.append(f"{data['file']} (now {expected}): {_command(data)}")
    assert not stale, (
        "stale stored strategies (if what a state does changed, bump store.GAME_VERSION); "
        "regenerate and delete the old files:\n" + "\n".join(stale)
    )
