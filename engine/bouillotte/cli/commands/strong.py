"""``bouillotte strong``: solve a profile's abstracted game with CFR+ (the ``strong``
extra) and store its strategy for the ``strong`` policy."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from ...rules.errors import InputError, UserError
from ...rules.together import Together
from ..options import (
    CsvFile,
    TidyJsonFlag,
    check_deals,
    check_tidy_targets,
    command_app,
    report_wanted,
    write_tidy,
)
from ..progress import counted
from ..strong_bands import bands_command
from ..strong_options import Bets, Classes, MaxStates, Raises, Straddles, System, need_numpy

MAX_SAMPLES = 1_000
"""The most draws ``strong exploit --samples`` takes per state (each plays the policy once)."""

cli = command_app(
    help="Solve a system's abstracted game with CFR+ and print its NashConv in counters per "
    "deal; --write stores the average strategy for the strong policy.",
    no_args_is_help=True,
)


@cli.callback()
def strong() -> None:
    """Solve a system's abstracted game with CFR+ and print its NashConv in counters per
    deal; --write stores the average strategy for the strong policy."""


@cli.command("solve")
def solve_command(
    variant: System = "foster-three",
    iterations: Annotated[int, typer.Option(metavar="N", help="CFR+ iterations.", min=1)] = 1000,
    cave: Annotated[
        int, typer.Option(metavar="N", help="Every cave (0: the profile's).", min=0)
    ] = 20,
    bets: Bets = "pot",
    raises: Raises = 2,
    straddles: Straddles = True,
    deals: Annotated[int, typer.Option(metavar="N", help="Deals sampled by chance.", min=1)] = 200,
    classes: Classes = 5,
    seed: Annotated[int, typer.Option(metavar="N", help="The seed of the sampled deals.")] = 1,
    max_states: MaxStates = None,
    merge: Annotated[
        bool,
        typer.Option(
            "--merge",
            help="Walk the sampled deals that give every seat the same hand class as one "
            "game, their payoffs averaged: the same game and NashConv on a smaller tree, "
            "solved faster; CFR+'s rounding then differs, so the solution does too.",
        ),
    ] = False,
    write: Annotated[bool, typer.Option("--write", help="Store the strategy.")] = False,
    csv_file: CsvFile = None,
    as_json: TidyJsonFlag = False,
) -> None:
    """Solve a system's abstracted game with CFR+ and print its NashConv in counters per
    deal; --write stores the average strategy for the strong policy.

    The game is python_bouillotte's (docs/strong-play.md), played by the engine; the
    solver is the project's CFR+ over the tree's arrays (numpy, from the strong extra).

    Example:  bouillotte strong solve -v foster-three --deals 20 --iterations 100 --csv -
    Example:  bouillotte strong solve -v foster-three --write   (a long solve: about a minute)
    Example:  bouillotte strong solve --deals 100 --iterations 300 --merge
    """
    need_numpy("solve")
    from ...strong.abstraction import Abstraction, AbstractionError, parse_bets
    from ...strong.abstraction import counted as numbered
    from ...strong.core import table_for
    from ...strong.merge import merged_tree
    from ...strong.solve import (
        Solution,
        best_response_gains,
        build_tree,
        cfr_plus,
        checked_iterations,
        payload,
    )
    from ...strong.store import address, check_bundled, check_replaceable, rules_digest, stored
    from ...strong.store import write as store
    from ...study.tidy_commands import abstraction_record, solve_table

    check_tidy_targets(csv_file, as_json)
    try:
        checked_iterations(iterations)
        abstraction = Abstraction(cave, parse_bets(bets), raises, straddles, deals, classes, seed)
        table = table_for(variant, abstraction)
        stored_at = address(table.variant, abstraction, iterations)
        if write:  # before the solve, not after it
            check_bundled(table.variant.id, rules_digest(table.variant))
            stored()  # a damaged file in the store (a link, a pipe) is one line now
            check_replaceable(stored_at)  # and a read-only one, a store under a file
        check_tidy_targets(csv_file, as_json)  # again: the profile (and store) read are inputs
        if (
            write
            and csv_file is not None
            and os.path.realpath(csv_file) == os.path.realpath(stored_at)
        ):
            raise InputError(
                "--csv names the file --write stores (the strategy would replace the table, "
                "or the table the strategy): name another",
                file=csv_file,
            )
        bands = len(table.bands) + 1 if abstraction.classes else None
        typer.echo(f"{table.variant.id}: {abstraction.describe(bands)}", err=True)
        if merge:
            tree, groups = merged_tree(table, max_states, counted("walk", "deals", deals))
        else:
            tree, groups = build_tree(table, max_states), 0
    except AbstractionError as exc:
        raise UserError(str(exc)) from None
    merged = (
        f" (its {numbered(deals, 'sampled deal')} walked as {numbered(groups, 'game')}: "
        "alike deals merged)"
        if groups
        else ""
    )
    typer.echo(
        f"tree: {len(tree.actor):,} states{merged}, {len(tree.keys):,} information states",
        err=True,
    )
    strategy, cpu = cfr_plus(tree, iterations, counted("CFR+", "iterations", iterations))
    gains, values = best_response_gains(tree, strategy)
    conv = sum(gains)
    solution = Solution(strategy, iterations, cpu, conv, values)
    if report_wanted(csv_file, as_json):
        typer.echo(
            f"NashConv {conv:.4f} counters per deal after {numbered(iterations, 'CFR+ iteration')} "
            f"({cpu:.1f} s of CPU); values {', '.join(f'{v:+.3f}' for v in values)}"
        )
    head = {
        "variant": table.variant.id,
        **abstraction_record(abstraction, table.cave),
        "states": len(tree.actor),
        "information_states": len(tree.keys),
        "iterations": iterations,
        "cpu_seconds": cpu,
        "nash_conv": conv,
        "merged_games": groups,
    }
    note = ""
    with Together() as stack:  # the table and the strategy: both in place, or neither
        if csv_file is not None or as_json:
            write_tidy(csv_file, as_json, solve_table(head, values, gains), stack)
        if write:
            note = store(stored_at, payload(table, tree, solution), stack)
    if note:
        typer.echo(note, err=True)
    if write:
        typer.echo(f"stored {stored_at.name}", err=True)


def _abstract_id(node: object, action: object) -> int | None:
    """The abstract action nearest a full-game action (same word; the nearest total; all
    in for a call or a bet the abstract cave cannot hold)."""
    from ...play.actions import Action
    from ...strong.core import WORDS, Node

    assert isinstance(node, Node) and isinstance(action, Action)
    legal = node.legal()
    table = node.table
    all_in = WORDS.index("all-in")
    if action.kind in WORDS:
        wanted = WORDS.index(action.kind)
        if wanted in legal:
            return wanted
        # a call the smaller cave cannot meet is a call for a sight: all in
        return all_in if action.kind == "call" and all_in in legal else None
    base = table.bet_base if action.kind == "bet" else table.raise_base
    totals = [a - base for a in legal if base <= a <= base + table.cave]
    if not totals or action.amount is None:
        # a bet or raise past the smaller cave (or the cap): all in where that is offered
        return all_in if all_in in legal else None
    return base + min(totals, key=lambda t: abs(t - action.amount))  # type: ignore[operator]


@dataclass
class _Tally:
    """``strong measure``'s counts for one choice: the deals that end otherwise, those of
    them with an action that has no counterpart, the deals compared, and the nets' moves
    summed over them."""

    differ: int = 0
    no_counterpart: int = 0
    compared: int = 0
    moved: float = 0.0

    def replay(self, table: object, deck: list[Any], actions: list[Any], full: Any) -> None:
        """Play one full-game deal again, card for card, in ``table``'s abstracted game."""
        from ...strong.core import GameTable, Node

        assert isinstance(table, GameTable)
        node = Node(table)
        for card in deck[: table.needed]:
            node.apply(card)
        for action in actions:
            if node.is_terminal():
                break  # ended sooner: its outcome is compared below
            found = _abstract_id(node, action)
            if found is None:
                break
            node.apply(found)
        if not node.is_terminal():
            self.no_counterpart += 1
            self.differ += 1
            return
        assert node.deal is not None
        mine = node.deal.outcome
        if mine.status != full.status or [p.winner for p in mine.pots] != [
            p.winner for p in full.pots
        ]:
            self.differ += 1
        self.moved += sum(abs(mine.players[n].net - full.players[n].net) for n in full.players)
        self.compared += 1


@cli.command("exploit")
def exploit_command(
    variant: System = "foster-three",
    policy: Annotated[str, typer.Option(metavar="POLICY", help="An invented player.")] = "simple",
    samples: Annotated[
        int, typer.Option(metavar="N", min=1, max=MAX_SAMPLES, help="Draws per state.")
    ] = 1,
    deals: Annotated[
        int | None,
        typer.Option(metavar="N", min=1, help="Deals sampled (200; not with --strong-seat)."),
    ] = None,
    strong_seat: Annotated[
        bool,
        typer.Option(
            "--strong-seat",
            help="Instead of NashConv: the stored strong strategy at each seat in turn, the "
            "others playing POLICY, on the strategy's own abstracted game.",
        ),
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="With --strong-seat: the sampled deals of this seed instead of those the "
            "strategy was solved on (its bands kept).",
        ),
    ] = None,
    max_states: MaxStates = None,
    csv_file: CsvFile = None,
    as_json: TidyJsonFlag = False,
) -> None:
    """NashConv of a table of one invented player on the default abstracted game: what
    best responses gain against it, to set beside the strong strategy's.

    Each state's action is the player's own, from the full deal's view (his real cards),
    taken as the nearest abstract action (the word's nearest total); a player that
    draws from its generator is sampled N times per state. With --strong-seat, the value
    of the stored strategy the strong player plays, at each seat in turn with POLICY at
    the others, on the game it was solved on (strong table's figure, in the abstraction),
    or with --seed on as many other sampled deals.

    Example:  bouillotte strong exploit -v foster-three --policy cautious --deals 20
    """
    from dataclasses import replace

    from ...play.stream import POLICY, Stream
    from ...strong.abstraction import Abstraction, AbstractionError
    from ...strong.abstraction import counted as numbered
    from ...strong.core import GameTable, load_variant, table_for
    from ...strong.solve import (
        DEFAULT,
        behaviour,
        best_response_gains_of,
        build_tree,
        seat_values,
        stored_weights,
    )
    from ...study.player_view import view_of
    from ...study.policies import get_policy
    from ...study.strong_policy import stored_for
    from ...study.tidy_commands import abstraction_record, exploit_table

    need_numpy("exploit")
    check_tidy_targets(csv_file, as_json)
    chosen = get_policy(policy)
    data = None
    if seed is not None and not strong_seat:
        raise UserError("--seed: only with --strong-seat (the deals the strategy is played on)")
    if policy == "strong" and not strong_seat:
        # its stored strategy, mapped onto the default game of other caves, is no invented
        # player: the NashConv printed (6.99 under foster-three) would be quoted as its own
        raise UserError(
            "--policy strong: the strong player is a solved strategy, not an invented one; "
            "its NashConv is the one strong solve prints on the game it was solved on "
            "(docs/strong-play.md); with --strong-seat, strong against itself is its value "
            "at each seat"
        )
    if (csv_file is not None or as_json) and strong_seat:
        raise UserError("--csv and --json: the NashConv run's figures only, not with --strong-seat")
    if strong_seat:
        if deals is not None:
            raise UserError(
                "--deals: --strong-seat plays the stored strategy on the deals it was solved "
                "on; leave --deals out"
            )
        data = stored_for(load_variant(variant).rules)
        if data is None:
            raise UserError(
                f"no strong strategy is stored for {variant}'s rules: solve one with "
                f"bouillotte strong solve -v {variant} --write"
            )
        abstraction = Abstraction.from_record(data["abstraction"], seed)
    else:
        abstraction = replace(DEFAULT, deals=200 if deals is None else deals)
    try:
        if data is not None and seed is not None:
            # other deals, the strategy's own bands of point: its classes mean the same
            table = GameTable(load_variant(variant), abstraction, variant)
            table.bands = list(data["bands"])
        else:
            table = table_for(variant, abstraction)
        check_tidy_targets(csv_file, as_json)  # again: the profile read is an input now
        tree = build_tree(table, max_states)
    except AbstractionError as exc:
        raise UserError(str(exc)) from None
    rng = Stream(1, POLICY)
    missed = [0]

    def choose(node: object) -> dict[int, float]:
        from ...strong.core import Node

        assert isinstance(node, Node) and node.deal is not None
        counts: dict[int, float] = {}
        for _ in range(samples):
            found = _abstract_id(node, chosen.choose(view_of(node.deal), rng))
            if found is None:
                missed[0] += 1
                found = node.legal()[0]
            counts[found] = counts.get(found, 0.0) + 1.0 / samples
        return counts

    others = behaviour(table, tree, choose)
    unmatched = (
        f"{numbered(missed[0], 'choice')} with no abstract counterpart, played as the first legal"
    )
    if data is not None:
        try:
            values = seat_values(tree, stored_weights(tree, data["strategy"]), others)
        except AbstractionError as exc:
            raise UserError(f"{data['file']}: {exc}") from None
        seats = ", ".join(f"{name} {v:+.3f}" for name, v in zip(table.names, values, strict=True))
        typer.echo(
            f"strong ({data['file']}: {abstraction.describe()}) at one seat against {policy} "
            f"on {table.variant.id}'s abstracted game: {sum(values) / len(values):+.3f} counters "
            f"per deal over the seats; at {seats} (the last seat deals; {unmatched})"
        )
        return
    gains, values = best_response_gains_of(tree, others)
    conv = sum(gains)
    if report_wanted(csv_file, as_json):
        typer.echo(
            f"{policy} on {table.variant.id}'s abstracted game: NashConv {conv:.4f} counters "
            f"per deal; values {', '.join(f'{v:+.3f}' for v in values)} ({unmatched})"
        )
    if csv_file is not None or as_json:
        head = {
            "variant": table.variant.id,
            "policy": policy,
            **abstraction_record(abstraction, table.cave),
            "samples": samples,
            "no_counterpart": missed[0],
            "nash_conv": conv,
        }
        write_tidy(csv_file, as_json, exploit_table(head, values, gains))


@cli.command("table")
def table_command(
    variant: System = "foster-three",
    against: Annotated[str, typer.Option(metavar="POLICY", help="The others' player.")] = "advised",
    deals: Annotated[
        int, typer.Option(metavar="N", min=2, help="Deals played, the strong player at A.")
    ] = 2000,
    seed: Annotated[int, typer.Option(metavar="N", help="The seed of the deals (simulate's).")] = 1,
    csv_file: CsvFile = None,
    as_json: TidyJsonFlag = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress.")] = False,
) -> None:
    """One strong seat among invented players: its net per deal, with a 95% interval.

    Deal i is simulate's (seed, i); the strong player sits at A and the deal passes round,
    so it holds every seat in turn; a carried pool is shared equally, as in the game. The
    interval is declined, as simulate's are, where fewer than 100 deals moved the seat's
    net or one deal carries more than a tenth of the spread (docs/simulation.md).

    Example:  bouillotte strong table -v foster-three --against simple --deals 500
    """
    from ...play.deal import new_deal
    from ...play.stream import deal_seed
    from ...strong.abstraction import counted as numbered
    from ...strong.core import load_variant
    from ...study.autoplay import play
    from ...study.deal_streams import policy_stream
    from ...study.intervals import judge, mean_interval
    from ...study.policies import get_policy
    from ...study.strong_policy import stored_for
    from ...study.tidy_commands import strong_table_table

    check_deals(deals)
    check_tidy_targets(csv_file, as_json)
    profile = load_variant(variant)
    stored_for(profile.rules)  # the stored strategies read now: a damaged one is one line
    check_tidy_targets(csv_file, as_json)  # again: the profile and the store are inputs now
    names = [chr(ord("A") + i) for i in range(profile.rules.table.players)]
    strong = get_policy("strong")
    others = get_policy(against)
    seats = {name: (strong if name == "A" else others) for name in names}
    # each deal's net counted in shares of a carried pool (its net times the players, plus
    # the pool), so the sums are integers, as the intervals' rule takes them
    shares = len(names)
    total = squares = moved = largest = 0
    progress = None if quiet else counted(f"strong against {against}", "deals", deals, 0)
    for i in range(deals):
        number = deal_seed(seed, i)
        deal = new_deal(profile, names, names[i % len(names)], seed=number)
        play(deal, seats, policy_stream(number))
        if progress is not None:
            progress(1)
        outcome = deal.outcome
        net = outcome.players["A"].net * shares + outcome.carry
        total, squares = total + net, squares + net * net
        moved, largest = moved + (net != 0), max(largest, abs(net))
    mean, low, high = (x / shares for x in mean_interval(total, squares, deals))
    judged = judge(total, squares, deals, moved, largest)
    on_tree, off_tree = getattr(strong, "on_tree", 0), getattr(strong, "off_tree", 0)
    if report_wanted(csv_file, as_json):
        interval = (
            f"[{low:+.3f}, {high:+.3f}]"
            if judged == "normal"
            else f"(no interval: {numbered(moved, 'deal')} moved it, the largest by "
            f"{largest / shares:.3f})"
        )
        typer.echo(
            f"strong at one seat of {profile.id} against {against}: {mean:+.3f} counters per "
            f"deal {interval} over {numbered(deals, 'deal')} (seed {seed}); "
            f"{numbered(on_tree, 'step')} from the strategy, {off_tree} by advised"
        )
    if csv_file is not None or as_json:
        record = {
            "variant": profile.id,
            "against": against,
            "seed": seed,
            "deals": deals,
            "net_per_deal": mean,
            "ci95_low": low,
            "ci95_high": high,
            "interval": judged,
            "moved": moved,
            "largest": largest / shares,
            "strategy_steps": on_tree,
            "advised_steps": off_tree,
        }
        write_tidy(csv_file, as_json, strong_table_table(record))


@cli.command("measure")
def measure_command(
    variant: System = "foster-three",
    policy: Annotated[str, typer.Option(metavar="POLICY", help="Who plays the full game.")] = (
        "advised"
    ),
    deals: Annotated[
        int,
        typer.Option(metavar="N", min=1, help="Deals played in the full game, each replayed."),
    ] = 2000,
    seed: Annotated[int, typer.Option(metavar="N", help="The seed of the deals (simulate's).")] = 1,
    csv_file: CsvFile = None,
    as_json: TidyJsonFlag = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress.")] = False,
) -> None:
    """What each choice of the default abstraction changes: the same deals and actions
    played in the full game and in the game with that choice alone (then all of them).

    A deal played by POLICY in the full game is played again, card for card, in the
    abstracted game, each action taken as its nearest abstract counterpart. It "differs"
    where an action has no counterpart (a raise past the cap, a straddle not offered) or
    the deal ends otherwise: another status (settled, uncontested, void) or other pools'
    winners. Hand classes and sampled deals change what a player knows and which deals
    are dealt, not how a deal ends, so they are not measured here.

    Example:  bouillotte strong measure -v foster-three --deals 500 --csv -   (a row per choice)
    """
    from dataclasses import replace

    from ...play.deal import new_deal
    from ...play.dealing import shuffled_pack
    from ...play.stream import deal_seed
    from ...strong.abstraction import Abstraction
    from ...strong.abstraction import counted as numbered
    from ...strong.core import load_variant, table_for
    from ...strong.solve import DEFAULT
    from ...study.autoplay import play
    from ...study.deal_streams import policy_stream
    from ...study.policies import get_policy
    from ...study.tidy_commands import measure_table

    check_deals(deals)
    check_tidy_targets(csv_file, as_json)
    profile = load_variant(variant)
    check_tidy_targets(csv_file, as_json)  # again: the profile read is an input now
    names = [chr(ord("A") + i) for i in range(profile.rules.table.players)]
    player = get_policy(policy)
    choices = {
        f"caves of {DEFAULT.cave}": Abstraction(cave=DEFAULT.cave),
        f"bets of {'+'.join(DEFAULT.bets)} and all in": Abstraction(bets=DEFAULT.bets),
        f"at most {DEFAULT.raises} bets and raises": Abstraction(raises=DEFAULT.raises),
        "all together": replace(DEFAULT, deals=0, classes=0),
    }
    # each deal is played once and replayed at once under every choice, so memory does not
    # grow with --deals
    tables = {label: table_for(variant, abstraction) for label, abstraction in choices.items()}
    tallies = {label: _Tally() for label in choices}
    progress = None if quiet else counted(f"{profile.id} played by {policy}", "deals", deals, 0)
    for i in range(deals):
        number = deal_seed(seed, i)
        deck = shuffled_pack(profile, number)
        deal = new_deal(profile, names, names[-1], deck=deck)
        actions = play(deal, player, policy_stream(number))
        for label, table in tables.items():
            tallies[label].replay(table, deck, actions, deal.outcome)
        if progress is not None:
            progress(1)
    rows: list[dict[str, object]] = []
    for label, tally in tallies.items():
        rows.append(
            {
                "variant": profile.id,
                "policy": policy,
                "seed": seed,
                "deals": deals,
                "choice": label,
                "differ": tally.differ,
                "no_counterpart": tally.no_counterpart,
                "compared": tally.compared,
                "moved": tally.moved / tally.compared if tally.compared else None,
            }
        )
        if not report_wanted(csv_file, as_json):
            continue
        typer.echo(
            f"{label}: {tally.differ / deals:.1%} of {numbered(deals, 'deal')} end otherwise "
            f"({tally.no_counterpart / deals:.1%} with an action that has no counterpart); "
            f"the nets move by {tally.moved / max(tally.compared, 1):.2f} counters a deal "
            "(summed over the players) in the others"
        )
    if csv_file is not None or as_json:
        write_tidy(csv_file, as_json, measure_table(rows))


cli.command("bands")(bands_command)
