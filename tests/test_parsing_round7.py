"""Parsing and messages, round seven: what the figures and newcomer reviews of probe 7
found read loosely or said wrongly.

- the Python API kept a numpy integer or an ``int`` subclass given as ``seed`` (or
  ``jobs``) as it was: ``to_csv()`` and ``to_frame()`` raised a raw ``TypeError``,
  ``.data`` was no JSON, and a subclass whose ``str()`` lied played and labelled another
  seed (figures, defect 1);
- a tendency's chance was compared with 1 once read as a float, so
  ``straddle=1.00000000000000000001`` passed and ``0.99999999999999999999`` played 1 under
  a label of 0.999...; whole numbers took leading zeros (``raises=099``); ``open-point``
  was quietly read as ``open_point`` (figures, defect 3);
- a seed of 21 digits given to the API was said to be "not 67 bits" (figures, defect 8);
- a scenario's id in capitals or with ``_`` was refused in pydantic's words ("String should
  match pattern"), and the README said capitals were allowed (newcomer, defect 4);
- a file past 20,000 values was told to use "fewer aliases" though it had none (newcomer,
  defect 5);
- ``run FOLDER`` said "no such scenario file" of a folder that exists (newcomer, defect 6);
- ``session pagat-teachin`` said "cannot read the file" with no suggestion, and
  ``session --help`` named two of the three bundled sessions (newcomer, defect 10).

Each test was shown failing before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import bouillotte as api
from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError
from bouillotte.rules.resources import bundled
from bouillotte.study.policies import get_policy
from bouillotte.study.table_policy import TablePolicy


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


# -- figures 1: a seed or jobs given as a numpy integer or an int subclass -------------------


class _Lying(int):
    """An ``int`` whose text says another number."""

    def __str__(self) -> str:
        return "99"

    def __repr__(self) -> str:
        return "99"

    def __format__(self, spec: str) -> str:
        return "99"


def test_a_numpy_seed_is_read_as_a_plain_whole_number() -> None:
    numpy = pytest.importorskip("numpy")
    given = api.simulate("foster", deals=3, seed=numpy.int64(7), jobs=numpy.int32(1))
    plain = api.simulate("foster", deals=3, seed=7)
    assert json.dumps(given.data) == json.dumps(plain.data)
    assert given.to_csv() == plain.to_csv()
    swept = api.sweep("foster", vary=["hands.favori=none"], deals=3, seed=numpy.int64(7))
    assert json.dumps(swept.data) == json.dumps(
        api.sweep("foster", vary=["hands.favori=none"], deals=3, seed=7).data
    )


def test_an_int_subclass_seed_plays_and_is_labelled_by_its_value() -> None:
    given = api.simulate("foster", deals=50, seed=_Lying(5))
    assert given.data == api.simulate("foster", deals=50, seed=5).data
    assert "seed 99" not in str(given)
    assert type(given.data[0]["seed"]) is int
    swept = api.sweep("foster", vary=["hands.favori=none"], deals=5, seed=_Lying(5), jobs=_Lying(1))
    assert swept.data == api.sweep("foster", vary=["hands.favori=none"], deals=5, seed=5).data


@pytest.mark.parametrize("name", ["seed", "jobs", "deals"])
def test_a_bool_is_still_no_whole_number(name: str) -> None:
    given: dict[str, Any] = {name: True}
    with pytest.raises(api.UserError, match=f"{name} must be a whole number"):
        api.simulate("foster", **given)


# -- figures 8: a seed of too many digits is counted in digits -------------------------------


@pytest.mark.parametrize(
    ("seed", "digits"), [(10**20, 21), (-(10**25), 26), (10**21 - 1, 21), (2**100, 31)]
)
def test_a_seed_of_too_many_digits_is_counted_in_digits(seed: int, digits: int) -> None:
    with pytest.raises(api.UserError) as raised:
        api.simulate("foster", deals=3, seed=seed)
    assert raised.value.describe().endswith(f"seed must have at most 20 digits, not {digits}")


# -- figures 3: tendencies read as written ----------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "says"),
    [
        ("bold:straddle=1.00000000000000000001", "straddle is a chance, from 0 to 1"),
        ("bold:straddle=0.99999999999999999999", "at most 15 decimals"),
        ("bold:see=0.0000000000000001", "at most 15 decimals"),
        ("bold:straddle=1.000", "not '1.000': write '1', with no zero after the last decimal"),
        ("bold:straddle=.5", "not '.5': write '0.5', with a digit on each side of the point"),
        ("bold:raises=099", "not '099': write '99', without a leading zero"),
        ("bold:raises=00", "not '00': write '0', without a leading zero"),
        ("bold:point_shift=-06", "not '-06': write '-6', without a leading zero"),
        ("bold:point_shift=-0", "not '-0': write '0', without a minus"),
        ("bold:raises=0100", "raises is a whole number from 0 to 99 (in ASCII digits), not '0100'"),
        ("bold:open-point=21", "'open-point' is not a tendency: write 'open_point'"),
        ("bold:Straddle=0.5", "'Straddle' is not a tendency (did you mean 'straddle'?)"),
        ("bold:straddle", "'straddle' is not a tendency; give NAME:tendency=value"),
    ],
)
def test_a_tendency_is_refused_unless_played_as_written(policy: str, says: str) -> None:
    with pytest.raises(InputError) as raised:
        get_policy(policy)
    assert says in raised.value.describe()


@pytest.mark.parametrize(
    ("policy", "key", "value"),
    [
        ("bold:straddle=1", "straddle", 1.0),
        ("bold:straddle=0.123456789012345", "straddle", 0.123456789012345),
        ("bold:raises=0", "raises", 0),
        ("bold:raises=10", "raises", 10),
        ("bold:point_shift=-6", "point_shift", -6),
    ],
)
def test_a_tendency_written_plainly_is_played(policy: str, key: str, value: float) -> None:
    player = get_policy(policy)
    assert isinstance(player, TablePolicy)
    assert player.tendencies.as_dict()[key] == value


def test_the_command_line_refuses_a_chance_past_one() -> None:
    code, _, err = _cli(
        "simulate", "-v", "foster", "-n", "3", "-q", "--policy", "bold:straddle=1.0000000000000001"
    )
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "straddle is a chance, from 0 to 1" in err


# -- newcomer 4: a scenario's id in capitals ------------------------------------------------


@pytest.mark.parametrize(
    ("written", "meant"), [("Foster-Sight", "foster-sight"), ("my_deal", "my-deal")]
)
def test_a_scenario_id_out_of_lower_case_is_refused_in_words(
    tmp_path: Path, written: str, meant: str
) -> None:
    text = (bundled("scenarios") / "foster-sight.yaml").read_text(encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text(text.replace("id: foster-sight", f"id: {written}", 1), encoding="utf-8")
    code, _, err = _cli("run", str(path), "-v", "foster")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "should match pattern" not in err
    assert f"mine.yaml:1: id: '{written}' is not a scenario's id" in err
    assert "lower case" in err and f"did you mean '{meant}'?" in err


def test_no_id_meant_is_a_device_name(tmp_path: Path) -> None:
    """``AUX`` lower-cased is ``aux``, which an id may not be (a device on Windows): no
    suggestion is given that would be refused in turn."""
    text = (bundled("scenarios") / "foster-sight.yaml").read_text(encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text(text.replace("id: foster-sight", "id: AUX", 1), encoding="utf-8")
    code, _, err = _cli("run", str(path), "-v", "foster")
    assert code == 2 and "'AUX' is not a scenario's id" in err
    assert "did you mean" not in err


def test_the_readme_says_a_scenario_id_is_lower_case() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    paragraph = " ".join(readme[readme.index("Exit statuses:") :].split("\n\n")[0].split())
    assert "a scenario's id) are written with the letters `a-z`, `A-Z`" not in paragraph
    assert "a scenario's or session's `id` in lower case" in paragraph


# -- newcomer 5: the values limit blames aliases only where there are some -------------------


def _values(tmp_path: Path, items: str) -> str:
    folder = tmp_path / "many"
    folder.mkdir()
    (folder / "mine.yaml").write_text(
        f"title: Mine\nsource: foster\nextends: foster\nsummary: [{items}]\n", encoding="utf-8"
    )
    code, _, err = _cli("variants", "show", "mine", "--variants", str(folder))
    assert code == 2 and len(err.strip().splitlines()) == 1
    return err


def test_a_long_file_without_aliases_is_not_told_of_aliases(tmp_path: Path) -> None:
    err = _values(tmp_path, ",".join(["1"] * 20001))
    assert "mine.yaml:4: the document holds more than 20,000 values" in err
    assert "alias" not in err.partition("mine.yaml:4:")[2]


def test_a_file_expanded_by_its_aliases_is_told_of_them(tmp_path: Path) -> None:
    err = _values(tmp_path, "&a [" + ",".join(["1"] * 100) + "]" + ", *a" * 300)
    assert "expands to more than 20,000 values (through its aliases *name)" in err


# -- newcomer 6: a folder given as the scenario ----------------------------------------------


@pytest.mark.parametrize("command", ["run", "compare"])
def test_a_folder_given_as_the_scenario_is_named_a_folder(tmp_path: Path, command: str) -> None:
    code, _, err = _cli(command, str(tmp_path))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "no such" not in err
    assert f"{tmp_path}: a folder, not a scenario file" in err
    assert "check" in err


# -- newcomer 10: a bundled session's name mistyped ------------------------------------------


def test_a_mistyped_bundled_session_gets_a_suggestion() -> None:
    code, _, err = _cli("session", "pagat-teachin")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "did you mean 'pagat-teaching'?" in err
    assert "cannot read" not in err
    assert "foster-two-rebuy" in err


def test_session_help_lists_every_bundled_session() -> None:
    code, out, _ = _cli("session", "--help")
    assert code == 0
    names = sorted(p.stem for p in (bundled("scenarios") / "sessions").glob("*.yaml"))
    assert len(names) >= 3
    flat = " ".join(out.split())
    assert all(name in flat for name in names), (names, flat)


def test_a_session_id_out_of_lower_case_is_refused_in_words(tmp_path: Path) -> None:
    text = (bundled("scenarios") / "sessions" / "foster-rebuy.yaml").read_text(encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text(text.replace("id: foster-rebuy", "id: Foster_Rebuy", 1), encoding="utf-8")
    code, _, err = _cli("session", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "should match pattern" not in err
    assert "id: 'Foster_Rebuy' is not a session's id" in err
    assert "did you mean 'foster-rebuy'?" in err
