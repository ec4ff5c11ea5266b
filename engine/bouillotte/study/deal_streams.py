"""The streams of a simulated deal, kept for the plays of it that follow.

Deal ``i`` of a run with seed ``S`` is shuffled from the stream of its number,
``play.stream.deal_seed(S, i)``, and its players draw from that number's policy stream
(:func:`policy_stream`; ``play/stream.py`` defines both). A caller that plays the same deal
again (a sweep, under every rule set) keeps each deal's number and the blocks of its policy
stream (:class:`DealStarts`), so that the next play neither hashes nor draws anew.
"""

from __future__ import annotations

from ..play.stream import POLICY, Stream, deal_seed


class DealStarts:
    """What a caller that plays the same deals again (a sweep: each deal under every rule
    set) keeps of their first play: each deal's number (:func:`.stream.deal_seed`, a
    SHA-256) and its policy stream, whose blocks every later play reads again. The same
    numbers and the same draws; :meth:`clear` it between deals, so that it stays small."""

    __slots__ = ("numbers", "streams")

    def __init__(self) -> None:
        self.numbers: dict[tuple[int, int, int], int] = {}
        self.streams: dict[int, Stream] = {}

    def seed(self, seed: int, i: int, after: int) -> int:
        """:func:`.stream.deal_seed` of the same numbers, worked out once."""
        key = (seed, i, after)
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = deal_seed(seed, i, after)
        return number

    def clear(self) -> None:
        self.numbers.clear()
        self.streams.clear()


def policy_stream(number: int, starts: DealStarts | None = None) -> Stream:
    """What the players of the deal numbered ``number`` draw from, from its first byte:
    where ``starts`` keeps the deal, a new reader of the blocks an earlier play made."""
    if starts is None:
        return Stream(number, POLICY)
    kept = starts.streams.get(number)
    if kept is None:
        kept = starts.streams[number] = Stream(number, POLICY)
    return kept.again()
