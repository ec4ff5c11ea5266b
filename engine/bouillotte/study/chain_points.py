"""Where a chain of deals stood, for a caller that takes its play up again from there: before
one of its deals (:class:`ChainPoint`) or before one step of a deal (:class:`StepPoint`).
:func:`void_chain.play_one` hands them to its ``mark`` and plays on from its ``start``; a
sweep takes up a rule set's play of a chain where the base's stood before it first read a
rule the set changes."""

from __future__ import annotations

from ..play.deal import Deal


class ChainPoint:
    """Where the chain of deal ``i`` of a run stood before one of its deals (``after``: 0
    for deal ``i`` itself, then each deal played on its carried pool): who deals, the caves
    (``None``: the variant's), what is carried, the deals played so far and each seat's net
    over them (:func:`play_one`)."""

    __slots__ = ("after", "carried", "caves", "dealer", "deals", "net")

    def __init__(
        self,
        after: int,
        dealer: str,
        caves: dict[str, int] | None,
        carried: int,
        deals: tuple[Deal, ...],
        net: tuple[int, ...],
    ) -> None:
        self.after = after
        self.dealer = dealer
        self.caves = caves
        self.carried = carried
        self.deals = deals
        self.net = net


class StepPoint(ChainPoint):
    """Where the chain stood before one step of its deal ``after``: the chain's state before
    that deal, the deal as it stood (``deal``), how many words the policy's generator had
    drawn in it (``drawn``) and how long its trace was (``traced``). The ``mark`` of
    :func:`play_one` is handed the deal being played: a caller that keeps the point keeps a
    copy of it (:meth:`Deal.copy`), and a ``start`` at the point plays on from a copy of
    that."""

    __slots__ = ("deal", "drawn", "traced")

    def __init__(self, chain: ChainPoint, deal: Deal, drawn: int, traced: int) -> None:
        super().__init__(
            chain.after, chain.dealer, chain.caves, chain.carried, chain.deals, chain.net
        )
        self.deal = deal
        self.drawn = drawn
        self.traced = traced
