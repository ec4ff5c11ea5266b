"""Calls of the Python API the command line does not make, printed so that
`.ci/compiled compare` can set the compiled engine's beside the pure engine's: docs/api.md's
functions, and docs/chance.md's ChanceDeal walked to a dealt deal and enumerated on a
small pack (its ``apply`` once made its result in a way the compiled class refused)."""

from __future__ import annotations

import json

import bouillotte.api as b
from bouillotte.play.deal import new_deal
from bouillotte.play.dealing import ChanceDeal, every_deal, pack
from bouillotte.rules.profiles import Library


def main() -> None:
    variant = Library().get("foster")
    names = ["A", "B", "C", "D"]
    chance = ChanceDeal.of(variant)
    while chance.step() is not None:
        chance = chance.apply(chance.outcomes()[0][0])
    deal = new_deal(
        variant,
        names,
        "D",
        hands=dict(zip(names, chance.hands, strict=True)),
        retourne=chance.retourne,
        stock=list(chance.left),
    )
    print(chance.hands, chance.retourne, deal.to_act)
    small = ChanceDeal(pack(["A", "K"]), 2, 3)
    print(sum(1 for _ in every_deal(small)), sum(p for p, _ in every_deal(small)))
    print(b.run("foster-sight", "foster").net)
    print(b.simulate(["foster", "pagat"], deals=200, seed=3, policy="bold").to_csv())
    print(json.dumps(b.sweep("foster", towards="pagat", deals=100, policies=["advised"]).data))
    print(b.odds("foster").to_csv())
