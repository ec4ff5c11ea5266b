"""``python_bouillotte``: Bouillotte registered as an OpenSpiel game (needs ``open_spiel``,
the ``strong`` extra: ``pip install ".[strong]"``).

>>> import pyspiel, bouillotte.strong  # doctest: +SKIP
>>> game = pyspiel.load_game("python_bouillotte", {"variant": "foster"})  # doctest: +SKIP

Parameters (all optional; the defaults play the full game under Foster's rules):
``variant`` (a bundled profile id, or the path of a user's own ``.yaml``), and the
abstraction's (``abstraction.py``): ``cave``, ``bets`` (``"pot+max"``; ``"all"``: every
total), ``raises``, ``straddles``, ``deals``, ``classes``, ``seed``. Every state drives the
project's engine (``core.py``): one engine, no second copy of the rules.
"""

from __future__ import annotations

from typing import Any, Final

import pyspiel

from ..rules.errors import InputError
from .abstraction import Abstraction, parse_bets
from .core import CHANCE, TERMINAL, Node, table_for

SHORT_NAME: Final = "python_bouillotte"

_UNCARRIED: Final = ",=()"
"""What OpenSpiel's game string (``name(key=value,...)``) reads as its own punctuation."""

_DEFAULTS: Final[dict[str, Any]] = {
    "variant": "foster",
    "cave": 0,
    "bets": "all",
    "raises": 0,
    "straddles": True,
    "deals": 0,
    "classes": 0,
    "seed": 1,
}

_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Bouillotte (the project's engine, any profile)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


def abstraction_of(params: dict[str, Any]) -> Abstraction:
    return Abstraction(
        cave=int(params["cave"]),
        bets=parse_bets(str(params["bets"])),
        raises=int(params["raises"]),
        straddles=bool(params["straddles"]),
        deals=int(params["deals"]),
        classes=int(params["classes"]),
        seed=int(params["seed"]),
    )


class BouillotteGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one profile and abstraction."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = _DEFAULTS | dict(params or {})
        variant = str(merged["variant"])
        if any(mark in variant for mark in _UNCARRIED):
            # str(game) would split it into other parameters, so that
            # serialize_game_and_state would not load again (or load another game)
            raise InputError(
                "a variant path may not hold , = ( or ): OpenSpiel's game string, which "
                "names the game when it is saved, could not carry it; rename the folder or file",
                file=variant,
            )
        self.table = table_for(variant, abstraction_of(merged))
        table = self.table
        info = pyspiel.GameInfo(
            num_distinct_actions=table.num_actions,
            max_chance_outcomes=table.max_chance_outcomes(),
            num_players=table.players,
            min_utility=-table.bound(),
            max_utility=table.bound(),
            utility_sum=0.0,
            max_game_length=table.max_game_length(),
        )
        super().__init__(_TYPE, info, merged)

    def new_initial_state(self) -> BouillotteState:
        return BouillotteState(self, Node(self.table))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BouillotteObserver:
        perfect = True if iig_obs_type is None else bool(iig_obs_type.perfect_recall)
        return BouillotteObserver(perfect)


class BouillotteState(pyspiel.State):  # type: ignore[misc]
    """A state: a :class:`~.core.Node`, which drives the engine's deal."""

    def __init__(self, game: BouillotteGame, node: Node) -> None:
        super().__init__(game)
        self.node = node

    def current_player(self) -> int:
        player = self.node.current()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.node.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.node.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.node.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            table = self.node.table
            if table.abstraction.deals:
                return f"deal {action}"
            from ..rules.cards import card_str

            return f"card {card_str(action)}"
        return self.node.table.action_text(action)

    def is_terminal(self) -> bool:
        return self.node.is_terminal()

    def returns(self) -> list[float]:
        return self.node.returns()

    def __str__(self) -> str:
        return str(self.node)

    def __deepcopy__(self, memo: Any) -> BouillotteState:
        return BouillotteState(self.get_game(), self.node.clone())


class BouillotteObserver:
    """Strings only (no tensors): the information state with perfect recall, else what a
    player sees now."""

    def __init__(self, perfect_recall: bool) -> None:
        import numpy as np

        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: BouillotteState, player: int) -> None:
        pass

    def string_from(self, state: BouillotteState, player: int) -> str:
        if self.perfect_recall:
            return state.node.info_key(player)
        return state.node.observation(player)


pyspiel.register_game(_TYPE, BouillotteGame)
