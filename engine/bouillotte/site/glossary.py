"""The glossary: each term with a definition and the sentence of a source that uses it.

Every ``quote`` is copied exactly from the shipped text of its work (``variants/texts/``;
the test suite checks it); ``work`` is a bibliography id. A ``paraphrased`` term quotes a
rendering (here, the French machine translation of pagat.com) and is shown without quotation
marks, with its ``translation``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    id: str
    term: str
    definition: str
    """Markdown."""
    work: str
    locator: str
    quote: str
    also: tuple[str, ...] = ()
    """Other spellings, for the search index."""
    translation: str | None = None
    """An English translation of a quote in another language."""
    paraphrased: bool = False
    """The quote is a rendering of the work, not its own words."""


GLOSSARY: tuple[Term, ...] = (
    Term(
        "age",
        "age",
        "The privileges of the player who speaks last: the dealer, unless someone straddles "
        "and buys them from him.",
        "foster",
        "Bouillotte: Blind and Straddle",
        "In Bouillotte the straddle practically buys from the dealer the privileges of the age.",
    ),
    Term(
        "blind",
        "blind",
        "The counters the dealer stakes before the cards are dealt; it counts as part of "
        "his bet. The teaching card calls it an ante of 1.",
        "foster",
        "Bouillotte: Blind and Straddle",
        "Before the distribution of the cards, the dealer puts up a blind, usually five "
        "counters, which the player on his right has the privilege of straddling.",
        ("ante",),
    ),
    Term(
        "brelan",
        "brelan (simple brelan)",
        "Three cards of one rank in a player's hand. It beats any point, and its holder "
        "collects a bonus from the other players.",
        "foster",
        "Bouillotte: Rank of the Hands",
        "A Simple Brelan is three of a kind in the player’s hand, three aces being the "
        "highest, and three eights the lowest.",
    ),
    Term(
        "brelan-carre",
        "brelan carré",
        "Three of a kind in hand with the fourth card of the rank turned up as the retourne: "
        "the best hand of all.",
        "foster",
        "Bouillotte: Rank of the Hands",
        "A Brelan Carré is four of a kind; three in the player’s hand, and the fourth "
        "turned up on the pack.",
        # Not "carré" alone: that is the teaching card's blind bet (carre-bet).
        ("four of a kind",),
    ),
    Term(
        "brelan-mignon",
        "brelan mignon",
        "Littré's name for a combination of bouillotte: two aces and a king in hand, with the "
        "ace of the king's suit turned up. Littré gives it no rank and no payment; no "
        "bundled system recognises it (the switch `hands.mignon`).",
        "littre-1873",
        "brelan, 1",
        "Brelan mignon, combinaison qui se présente à la bouillotte, quand, un joueur ayant "
        "deux as et un roi dans la main, l'as de retourne est de la couleur de son roi.",
        ("mignon",),
        translation="Brelan mignon: a combination occurring at bouillotte when a player "
        "holding two aces and a king sees turned up the ace of his king's suit.",
    ),
    Term(
        "brelan-quatrieme",
        "brelan quatrième",
        "The eighteenth-century name of the brelan carré: three in hand and the turned card "
        "of the same rank.",
        "academie-1740",
        "Brelan",
        "Et, Brelan quatriéme, Lorsque la carte qui retourne est de même sorte que les trois "
        "qu'un des joueurs a dans la main.",
        ("quatrième", "quatrieme"),
        translation="And brelan quatrième: when the card turned up is of the same kind as "
        "the three a player holds in his hand.",
    ),
    Term(
        "calling-privilege",
        "calling privilege",
        "Foster's way of closing the betting with three or more players in: the right to "
        "raise once all have met the bet passes from player to player to the right.",
        "foster",
        "Bouillotte: Calling and Showing",
        "if three or four are betting, the privilege of calling falls upon each in turn "
        "from right to left.",
    ),
    Term(
        "card-under-the-retourne",
        "card under the retourne",
        "The next card of the stock. Under Foster, a player holding a brelan higher than a "
        "brelan carré's may turn it up, and wins if it completes his four.",
        "foster",
        "Bouillotte: Rank of the Hands",
        "the player may turn up the card under the retourne, and if this makes his hand a "
        "brelan carré also, he wins the pool.",
    ),
    Term(
        "carre-bet",
        "carre (blind bet)",
        "In the teaching card, a blind bet before the deal that doubles the pot, made in turn "
        "to the right like Foster's straddle; not to be confused with the brelan carré.",
        "pagat-card",
        "02 Cards, chips and deal",
        "Before seeing cards, dealer’s right may add the whole pot’s amount, the next player "
        "right may double the new pot, and so on for at most one circuit; the first refusal "
        "ends these blind carre bets.",
    ),
    Term(
        "cave",
        "cave",
        "A player's stake for the evening, bought from the banker. It is also the most he "
        "can bet or lose: table stakes.",
        "foster",
        "Bouillotte: Stakes",
        "Each player purchases an equal number of counters from the banker, usually 100. "
        "This original cave cannot be added to or deducted from.",
    ),
    Term(
        "decave",
        "décavé",
        "A player who has lost his whole cave. Only then may he buy a new one.",
        "foster",
        "Bouillotte: Stakes",
        "not until he is decavé, [has lost everything,] can he purchase another stake, the "
        "amount of which is usually at his own option.",
        ("decave", "decavé"),
    ),
    Term(
        "eldest-hand",
        "eldest hand",
        "The player on the dealer's right, who speaks first (unless there are straddles).",
        "foster",
        "Bouillotte: Suggestions for Good Play",
        "With good cards it is always better for the eldest hand to pass, especially with a brelan",
    ),
    Term(
        "favori",
        "brelan favori",
        "A pair in hand with the retourne of the same rank. Foster pays it an extra bonus. "
        "The teaching card does not count it as a brelan. The word meant other things "
        "before: in 1740 a brelan of a rank declared at the start and paid double, for "
        "Pierer (1857–65) a brelan held from the deal (see the History page).",
        "foster",
        "Bouillotte: Rank of the Hands",
        "Should the brelan be formed by uniting the retourne with two cards in the player’s "
        "hand, it is a brelan favori, and the holder of it receives an extra counter from "
        "every player at the table, whether he wins the pool or not.",
        ("favori",),
    ),
    Term(
        "ledger",
        "bonus ledger",
        "The teaching card's separate, signed record of brelan bonuses, kept apart from the caves.",
        "pagat-card",
        "05 All-ins and bonuses",
        "To avoid physical chip shortages, our teaching table records bonuses on a separate "
        "signed ledger, without enlarging the betting cave.",
    ),
    Term(
        "misdeal",
        "misdeal",
        "A card exposed during the deal. Under Foster the deal is finished, triplets are paid, "
        "and the cards are dealt again.",
        "foster",
        "Bouillotte: Misdeals",
        "If any card is exposed during the deal, either in the pack or in giving it to a "
        "player, it is a misdeal",
    ),
    Term(
        "mistigri",
        "brelan de Mistigri",
        "The queen of clubs with a pair in hand, counted as a brelan below every ordinary "
        "brelan and above the point. Some older tables played it. Neither Foster nor the "
        "teaching card recognises it.",
        "pagat",
        "Variations (2019 page, French machine translation)",
        "Certains ont reconnu le Brelan de Mistigri consistant en une reine des trèfles avec "
        "deux cartes du même rang et de la même couleur – par exemple ♣ Q- ♥ 9- ♦ 9. Ce "
        "classement est inférieur à un Brelan ordinaire, mais supérieur à une main gagnant "
        "des points.",
        ("mistigri",),
        translation="Some recognised the Brelan de Mistigri: the queen of clubs with two cards "
        "of one rank, for example ♣Q-♥9-♦9. It ranks below an ordinary brelan but above a "
        "hand that wins on points.",
        paraphrased=True,
    ),
    Term(
        "no-more",
        "no more",
        "The teaching card's way of closing the betting: after all have called, each player "
        "except the last raiser may raise once more or say “no more”.",
        "pagat-card",
        "03 Betting and closing action",
        "With 3 or 4, after all calls everyone except the last raiser gets one further "
        "chance to raise or say “no more”.",
    ),
    Term(
        "pass-the-word",
        "pass the word",
        "To hand the privilege of raising to the player on one's right instead of using it. "
        "If he declines too, the betting is called.",
        "foster",
        "Bouillotte: Calling and Showing",
        "If he does not avail himself of his privilege of raising, he must pass the word to "
        "the player on his right; that is, transfer the privilege to him.",
    ),
    Term(
        "passe",
        "passe",
        "In the older Brelan, the stake the dealer alone puts up before the deal; when "
        'everybody passes it stays, and the next dealer adds his own ("two passes").',
        "encyclopedie-1752",
        "Breland, p. 415",
        "Celui qui donne met seul au jeu : cet enjeu s'appelle passe",
        translation="The dealer alone puts a stake into the game: this stake is called the passe",
    ),
    Term(
        "point",
        "point",
        "When no brelan is shown, the pips of each suit are counted over the exposed cards. "
        "The richest suit wins, and the pool goes to the player holding its best card.",
        "foster",
        "Bouillotte: The Point",
        "The pips in each suit are then counted, the ace reckoning for 11, court cards for 10 "
        "each, and the 9 and 8 at their face value. Whichever suit has the greatest number "
        "of pips is called the suit that wins, and the player who holds the highest card of "
        "it takes the pool",
        ("suit that wins",),
    ),
    Term(
        "poussette",
        "poussette",
        "A cheat's trick: slipping more counters into the stake once the hand looks good.",
        "foster",
        "Bouillotte: Methods of Cheating",
        "There is one trick, called the poussette, which consists in surreptitiously placing "
        "more counters on the table when the player finds he has a hand worth backing.",
    ),
    Term(
        "retourne",
        "retourne",
        "The card turned face up after the deal. It belongs to no one. It counts in the "
        "point, and it makes a brelan carré or a favori with the cards of its rank.",
        "foster",
        "Bouillotte: Dealing",
        "Three cards are given to each player, one at a time, face down, and the thirteenth "
        "is then turned face up on the pack. This card is called the retourne.",
        ("retourné", "upcard"),
    ),
    Term(
        "sight",
        "sight (calling for a sight)",
        "A call made with the whole of a cave that cannot meet the bet. The caller can win "
        "from each opponent only as much as he staked.",
        "foster",
        "Bouillotte: Betting",
        "Any player may call for a sight for the amount in front of him, but that does not "
        "prevent the others from continuing the betting.",
        ("all-in", "all in"),
    ),
    Term(
        "stifle",
        "stifle",
        "To throw in a winning brelan without showing it, so that the opponents cannot tell "
        "whether it was a bluff. The brelan's bonus is given up.",
        "foster",
        "Bouillotte: Suggestions for Good Play",
        "When a player with a brelan has frightened off his opponents with a big bet, it is "
        "usual to stifle the brelan",
    ),
    Term(
        "straddle",
        "straddle",
        "A blind bet, before the deal, that doubles the dealer's blind and buys the age. It "
        "passes to the right, once round at most.",
        "foster",
        "Bouillotte: Blind and Straddle",
        "If he straddles, he may be straddled again, and so on.",
    ),
)


FRENCH: dict[str, str] = {
    "brelan": "three of a kind",
    "brelan-carre": "square brelan",
    "carre-bet": "square",
    "cave": "the stake (literally, cellar)",
    "decave": "stake lost",
    "favori": "favourite brelan",
    "mistigri": "Mistigri's brelan",
    "poussette": "a little push",
    "retourne": "the card turned up",
}
"""The French terms (marked ``lang="fr"`` on the page), each with an English gloss."""

RULES: dict[str, tuple[str, ...]] = {
    "blind": ("forced_bets.dealer_blind", "forced_bets.others_ante"),
    "brelan": ("hands.brelans_recognised", "bonuses.brelan"),
    "brelan-carre": ("hands.carre", "bonuses.carre", "bonuses.beaten_carre"),
    "calling-privilege": ("betting.closing", "betting.privilege_after_the_word"),
    "card-under-the-retourne": ("hands.card_under_retourne",),
    "cave": ("stakes.cave", "stakes.cave_can_be_topped_up", "stakes.rebuy_amount"),
    "decave": ("stakes.rebuy_amount", "stakes.skip_dealer_who_rebought"),
    "favori": ("hands.favori", "bonuses.favori"),
    "misdeal": ("misdeals.exposed_card_is_misdeal", "misdeals.triplet_payment"),
    "mistigri": ("hands.mistigri", "hands.mistigri_card", "bonuses.mistigri"),
    "no-more": ("betting.closing",),
    "pass-the-word": ("betting.privilege_after_the_word",),
    "point": ("point.counted_cards", "point.suit_tie", "table.point_values"),
    "retourne": ("point.counted_cards", "hands.card_under_retourne"),
    "sight": ("betting.all_in_may_open_or_raise", "point.side_pots_by_winning_suit"),
    "straddle": ("forced_bets.straddles", "forced_bets.straddle_amount"),
}
"""The rules each term is about: the glossary links to their rows of the matrix."""
