# ruff: noqa: E501  (the files' own lines: a README table row, a command line, a template)
"""The working folder ``bouillotte new DIR`` makes: everything an editor of their own
systems needs, small enough to read in a minute, and correct as it stands (``check``
passes, ``site build`` builds; ``tests/test_editor.py`` runs every command of its README).

One work of the editor's own (``house-rules``, with its text), one profile extending the
bundled ``foster`` on the two rules the house rules change (each with a documented quote
of that text), one scenario whose ``expect`` is worked by hand from those sentences, a site
configuration with a theme folder holding one template override, and the folder's README.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ..rules.writing import Output
from .new_aside import claimed, remove_abandoned_asides

PROFILE_ID = "our-table"
WORK_ID = "house-rules"
SCENARIO_ID = "our-table-nobody-opens"

README = f"""\
# Our Bouillotte: a working folder

Made by `bouillotte new`. Every command below is run from this folder.

| file | what it is |
|---|---|
| `variants/{PROFILE_ID}.yaml` | our system: Foster's rules (the bundled `foster`) with the two rules our house rules change, each citing them |
| `variants/sources.yaml` | the bibliography: the works our profiles cite (`{WORK_ID}`) |
| `variants/texts/{WORK_ID}.txt` | the text of our house rules: every `documented` quote must stand in it word for word |
| `scenarios/{SCENARIO_ID}.yaml` | a deal, its actions and the outcome worked out by hand (`expect`) |
| `site.yaml` | the site's title, introduction and theme |
| `theme/templates/search.html` | one bundled template replaced by ours (any template or asset may be) |

Check the profile and play the scenario against its `expect`:

```sh
bouillotte variants show {PROFILE_ID} --variants variants
bouillotte check --variants variants scenarios
```

Build the site (our system beside the bundled ones, which it extends), then preview it:

```sh
bouillotte site build --config site.yaml --variants variants --scenarios scenarios --out _site
bouillotte site serve --dir _site
```

A site of our own systems only (`--no-bundled`) reads no bundled profile, so a profile
there must state every rule. `variants export --standalone` writes ours with every rule
stated (each inherited one marked `inherited_from: foster`, its citation kept), with the
works it cites and their texts:

```sh
bouillotte variants export {PROFILE_ID} --variants variants --standalone --out own
bouillotte site build --no-bundled --config site.yaml --variants own --scenarios scenarios --out _own
bouillotte site serve --dir _own
```

The formats: docs/profiles.md, docs/scenarios.md and docs/site.md in the bouillotte
repository, and `bouillotte schema profile` / `bouillotte schema scenario`.
"""

SITE = """\
# The site's configuration (docs/site.md): bouillotte site build --config site.yaml
title: Our table's Bouillotte
intro: |
  The rules **we** play by: Foster's, with the blind and the levy of our house rules.
language: en
footer: Published by our club.
editors: [Our club]   # whom "cite this page" names: people as "Family, Given"
edition_date: {today}   # this edition's date, as "cite this page" gives it: change it when you publish
theme: theme
"""

SOURCES = f"""\
# The bibliography: every `source:` of our profiles and scenarios is an id of this list.
# `file` is the text of the passages we quote, beside this file; `language` is en unless given.
works:
  {WORK_ID}:
    kind: rulebook
    author: Our club
    authors: [Our club]   # whom the citations name: a person as "Family, Given"
    title: "House rules of our Bouillotte table"
    year: "2026"
    locator_scheme: "section heading"
    file: texts/{WORK_ID}.txt
    notes: The sheet pinned by our card table.
"""

TEXT = """\
Work: house-rules
Title: House rules of our Bouillotte table
Transcribed from: the sheet pinned by our card table
---
Forced bets. Before the cards are dealt, the dealer puts up a blind of two counters.

Void deals. If no one will open, the deal is void, and each player puts two counters in the
pool for the next deal.

Everything else is played as in Foster's Complete Hoyle.
"""

PROFILE = f"""\
# Our system: Foster's (the bundled `foster`) with the two rules our house rules change.
# Each rule cites its source; a `documented` quote must stand word for word in the text.
title: Our table
short: Our table 2026
source: {WORK_ID}
extends: foster
summary: >-
  Foster's Bouillotte as we play it: a blind of two counters, and a void deal's levy of two.
rules:
  forced_bets:
    dealer_blind:
      value: 2
      source: {WORK_ID}
      locator: Forced bets
      quote: "the dealer puts up a blind of two counters"
      status: documented
  void_deals:
    void_levy:
      value: 2
      source: {WORK_ID}
      locator: Void deals
      quote: "If no one will open, the deal is void, and each player puts two counters in the pool"
      status: documented
"""

SCENARIO = f"""\
id: {SCENARIO_ID}
title: "Nobody opens at our table"
source: {{work: {WORK_ID}, locator: Void deals, status: constructed}}
notes: |
  Everyone passes: the deal is void.

  > If no one will open, the deal is void, and each player puts two counters in the pool
  > for the next deal.

  Worked by hand: D's blind of 2 stays in the pool and each of the four players adds 2, so
  2 + 4 × 2 = 10 counters are carried to the next deal. Net A −2, B −2, C −2, D −4 (the
  nets sum to minus the carry).
players: [A, B, C, D]
dealer: D
hands:
  A: [AS, KH, 9D]
  B: [KS, QH, 8D]
  C: [QS, 9H, AC]
  D: [9S, AD, KC]
retourne: 8C
actions: [A pass, B pass, C pass, D pass]
variants: [{PROFILE_ID}]
expect:
  {PROFILE_ID}:
    status: void
    pots: []
    net: {{A: -2, B: -2, C: -2, D: -4}}
    carry: 10
"""

SEARCH_TEMPLATE = """\
{% extends "base.html" %}
{% block main %}
<h1>Search our rules</h1>
<form class="search-page-form" role="search" aria-label="Search this site" action="search.html" method="get">
  <label for="search-page-input">Words to find</label>
  <input id="search-page-input" name="q" type="search" autocomplete="off">
  <button type="submit">Search</button>
</form>
<p id="search-status" role="status" aria-live="polite"></p>
<ol id="search-results" class="search-results"></ol>
<noscript><p class="note">Search runs in your browser and needs JavaScript.</p></noscript>
{% endblock %}
{% block scripts %}
<script src="assets/search-index.js"></script>
<script src="assets/search.js"></script>
{% endblock %}
"""

FILES: dict[str, str] = {
    "README.md": README,
    "site.yaml": SITE,
    "variants/sources.yaml": SOURCES,
    f"variants/texts/{WORK_ID}.txt": TEXT,
    f"variants/{PROFILE_ID}.yaml": PROFILE,
    f"scenarios/{SCENARIO_ID}.yaml": SCENARIO,
    "theme/templates/search.html": SEARCH_TEMPLATE,
}
"""Every file of the working folder, by its path in it."""


def scaffold(folder: Path, today: date | None = None) -> list[Path]:
    """Write :data:`FILES` into ``folder`` (new, or empty), returning the paths written:
    built aside and renamed into place whole (``rules/writing.py``), so that a failure
    leaves nothing behind and the same command can be run again; the folder aside is
    claimed while it is built, and one a ``new`` killed outright left is removed by the
    next (``new_aside.py``). ``site.yaml``'s ``edition_date`` is ``today`` (the day the
    folder is made, by default): the edition's date is the editor's, and this is the day
    they began it."""
    day = (today or date.today()).isoformat()
    remove_abandoned_asides(folder)
    with Output(folder, "fresh") as out, claimed(out):
        for name, text in FILES.items():
            out.add(name, text.replace("{today}", day) if name == "site.yaml" else text)
    return out.written
