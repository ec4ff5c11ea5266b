"""A session's result as text for the terminal: the deal-by-deal table, then the final
standings and the notes."""

from __future__ import annotations

from .render import counted
from .render import table as render_table
from .session_result import SessionResult, fraction_text


def session_text(result: SessionResult) -> str:
    """The deal-by-deal table and the final standings."""
    players = result.players
    seeded = any(d.seed is not None for d in result.deals)  # a seed and policy column then
    rows = []
    for d in result.deals:
        passed = ", ".join(d.skipped_dealers)
        dealer = d.dealer + (f" (not {passed})" if passed else "")
        rows.append(
            [
                d.number,
                dealer,
                d.carried_in or "",
                d.outcome.status,
                d.summary(),
                *[f"{d.outcome.players[p].net:+d}" for p in players],
                ", ".join(f"{r.player} {r.amount}" for r in d.rebuys),
                *(["" if d.seed is None else d.seed, d.policy_words] if seeded else []),
            ]
        )
    lines = [f"Session under {result.variant}: {counted(len(result.deals), 'deal')}", ""]
    headers = ["deal", "dealer", "in", "status", "pots", *players, "rebuys"]
    headers += ["seed", "policy"] if seeded else []
    lines.append(render_table(headers, rows))
    lines.append("")
    lines.append("Final standings (cave + ledger + share - stake - rebuys):")
    lines.append(
        render_table(
            ["place", "player", "cave", "ledger", "share", "stake", "rebuys", "result"],
            [
                [
                    s.place,
                    s.player,
                    s.cave,
                    s.ledger,
                    fraction_text(s.share),
                    s.stake,
                    s.rebuys,
                    fraction_text(s.result),
                ]
                for s in result.ranking()
            ],
        )
    )
    lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines)
