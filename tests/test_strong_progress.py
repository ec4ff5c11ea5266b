"""``strong table`` and ``strong measure`` say how far they are, as ``simulate`` does.

Both play one seeded deal after another: ten million deals of ``strong table`` (the number
it takes to tell a strong seat ahead of ``table`` by a hundredth of a counter) take
eleven minutes of the compiled engine. Before, they said nothing until the end. They now
write a progress line on stderr every ten seconds off a terminal (here every deal), and
``-q`` silences it; the figures on stdout are the same either way.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")


def _run(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[str, str]:
    from bouillotte.cli import progress
    from bouillotte.cli.app import app

    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)
    with pytest.raises(SystemExit) as done:
        app(args)
    assert done.value.code in (0, None)
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.mark.parametrize(
    ("command", "label"),
    [
        (["strong", "table", "--against", "simple"], "strong against simple"),
        (["strong", "measure", "--policy", "simple"], "foster-three played by simple"),
    ],
)
def test_the_deals_are_counted_as_they_are_played_and_q_silences_them(
    command: list[str],
    label: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, err = _run([*command, "--deals", "3"], monkeypatch, capsys)
    lines = [line for line in err.splitlines() if line.startswith(label)]
    assert [line.split(" (")[0] for line in lines] == [
        f"{label}: 1/3 deals",
        f"{label}: 2/3 deals",
        f"{label}: 3/3 deals",
    ]
    assert "deals/s" in lines[-1] and "ETA 0:00" in lines[-1]
    quiet_out, quiet_err = _run([*command, "--deals", "3", "-q"], monkeypatch, capsys)
    assert quiet_err == ""
    assert quiet_out == out and out.strip()
