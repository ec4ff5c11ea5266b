"""The closing round of the betting, once everyone has met the bet (``betting.closing``):
Foster's calling privilege, or the teaching card's round of "no more".

Each is part of the betting round (:class:`betting.BettingRound` holds it while it lasts); a
raise ends it, and the betting goes on."""

from __future__ import annotations

from .board import Board
from .phases import NO_MORE, PRIVILEGE, Phase

__all__ = ["CallingPrivilege", "ClosingRound", "NoMoreRound"]


class ClosingRound:
    """A closing round: its phase, and whose word comes next."""

    __slots__ = ("phase",)

    def __init__(self, phase: Phase) -> None:
        self.phase = phase

    def step(self, board: Board, seat: int, folded: bool) -> None:
        """``seat`` said the closing word (or folded)."""
        raise NotImplementedError

    def copy(self) -> ClosingRound:
        """This round as it stands, sharing nothing that either changes."""
        raise NotImplementedError

    def next_to_act(self, board: Board) -> int | None:
        """Who speaks next, or ``None`` if the betting is over."""
        raise NotImplementedError


class CallingPrivilege(ClosingRound):
    """Foster's calling privilege: the holder of this round (``holder``) may raise or pass
    the word to his right; ``asked`` is who is to answer (``None``: a second refusal has
    called, and the betting is over)."""

    __slots__ = ("asked", "holder", "word_passed")

    def __init__(self, holder: int) -> None:
        super().__init__(PRIVILEGE)
        self.holder = holder
        self.asked: int | None = holder
        self.word_passed = False

    def copy(self) -> CallingPrivilege:
        other = CallingPrivilege(self.holder)
        other.asked, other.word_passed = self.asked, self.word_passed
        return other

    def step(self, board: Board, seat: int, folded: bool) -> None:
        """``seat``, asked, passed the word (or folded)."""
        if self.word_passed and not folded:  # a second refusal calls
            self.asked = None
            return
        self.word_passed = True
        self.asked = board.next_active(seat)

    def next_to_act(self, board: Board) -> int | None:
        """Who answers next, or ``None`` if the betting is over."""
        if self.asked is None or len(board.active()) <= 1:
            return None
        return self.asked


class NoMoreRound(ClosingRound):
    """The round of "no more": who is still to say it, in order, after the last raiser."""

    __slots__ = ("queue",)

    def __init__(self, queue: list[int]) -> None:
        super().__init__(NO_MORE)
        self.queue = queue

    def copy(self) -> NoMoreRound:
        return NoMoreRound(list(self.queue))

    def step(self, board: Board, seat: int, folded: bool) -> None:
        """``seat`` said no more (or folded)."""
        if seat in self.queue:
            self.queue.remove(seat)

    def next_to_act(self, board: Board) -> int | None:
        """Who speaks next, or ``None`` if the betting is over."""
        return self.queue[0] if self.queue else None
