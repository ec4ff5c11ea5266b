"""Generated theme templates and cache files (issue 23), as ``test_generated_yaml.py`` does
for YAML: a theme's template made of Jinja2 fragments (tags, expressions, names of other
templates, paths out of the theme, Python internals, bytes that are not UTF-8) builds the
site or is refused with exit 2 and one line naming a template; a cache file of any bytes,
sealed or not, is used only if it has the shape of its kind, and never changes what
``variants list`` prints."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules import diskcache, listing
from bouillotte.site import cache as site_cache

from .test_catalogue import OWN_BUILD, _own_site

pytestmark = pytest.mark.slow  # Hypothesis builds many small sites

FRAGMENTS = [
    "{% ", " %}", "{{ ", " }}", "{# ", " #}", "if ", "else", "endif", "for x in ", "endfor",
    "block main", "endblock", "extends ", "include ", "import ", "from ", " as m", "macro m()",
    "endmacro", "set y = ", "raw", "endraw", '"base.html"', '"macros.html"', '"nosuch.html"',
    '"../../outside/secret.html"', '"/etc/passwd"', "page", "page.title", "root", "nav",
    "site.title", "nosuch", "x", "y", "1", "0", "1 // 0", "[].pop()", "''.__class__",
    "range(10**9)|list", "|markdown", "|inline", "|upper", "|slug", "(", ")", "[", "]", ".",
    ",", "~", " ", "\n", "<p>", "</p>", "&", "'", '"', "é", "\u200b",
]  # fmt: skip

TEMPLATE_NAMES = ["search.html", "base.html", "macros.html", "home.html", "mine.html"]


@st.composite
def templates(draw: st.DrawFn) -> tuple[str, bytes]:
    text = "".join(draw(st.lists(st.sampled_from(FRAGMENTS), max_size=30)))
    if draw(st.booleans()):  # a theme page as themes write them
        text = '{% extends "base.html" %}{% block main %}' + text + "{% endblock %}"
    data = text.encode("utf-8")
    if draw(st.integers(0, 5)) == 0:  # not UTF-8
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff\xfe" + data[at:]
    return draw(st.sampled_from(TEMPLATE_NAMES)), data


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(template=templates())
def test_a_generated_theme_template_builds_or_is_refused_at_a_template(
    template: tuple[str, bytes],
) -> None:
    name, data = template
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        _own_site({name: data})(tmp)
        argv = [a.replace("{tmp}", str(tmp)) for a in OWN_BUILD]
        result = CliRunner().invoke(app, argv)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception  # a traceback: Hypothesis reports the template
        assert result.exit_code in (0, 2), (result.exit_code, result.stderr)
        if result.exit_code == 2:
            message = result.stderr.strip().splitlines()[-1]
            assert message.startswith("error: "), message
            assert "templates/" in message or "site.yaml" in message, message
            assert not (tmp / "out").exists()
        secret = "SECRET of another folder"
        for file in (tmp / "out").rglob("*") if (tmp / "out").exists() else []:
            assert not file.is_file() or secret.encode() not in file.read_bytes(), file


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def cache_files(draw: st.DrawFn) -> tuple[str, str, str]:
    """What a cache file may hold: bytes, JSON, JSON of nearly the right shape; sealed for
    its name, for another name, or not at all (:func:`_write`)."""
    kind = draw(st.sampled_from([*site_cache.SCHEMAS, "variant-rows"]))
    shape = draw(st.integers(0, 3))
    if shape == 0:
        payload = draw(st.binary(max_size=200)).decode("utf-8", "replace")
    elif shape == 1:
        payload = json.dumps(draw(JSON))
    elif shape == 2:  # the keys a result has, with values of any type
        keys = ["data", "steps", "responsible", "reproduces", "odds", "error", "rows", "base"]
        payload = json.dumps(draw(st.dictionaries(st.sampled_from(keys), JSON, max_size=5)))
    else:
        row = {"id": "foster", "title": draw(JSON), "players": draw(JSON), "source": "foster"}
        payload = json.dumps([{**row, "extends": draw(JSON)}])
    return kind, payload, draw(st.sampled_from(["sealed", "other name", "bare"]))


def _write(file: Path, payload: str, how: str) -> None:
    if how == "sealed":
        text = diskcache.seal(file, payload)
    elif how == "other name":
        text = diskcache.seal(file.with_name("another.json"), payload)
    else:
        text = payload
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(text.encode("utf-8", "surrogatepass"))
    file.chmod(0o600)


@settings(max_examples=150, deadline=None)
@given(generated=cache_files())
def test_a_generated_cache_file_is_used_only_with_the_shape_of_its_kind(
    generated: tuple[str, str, str],
) -> None:
    kind, payload, how = generated
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / f"{kind}-0.json"
        _write(file, payload, how)
        if kind == "variant-rows":
            rows: Any = listing._rows(diskcache.load(file, listing.MAX_FILE_BYTES))
            assert rows is None or all(list(r) == list(listing.COLUMNS) for r in rows)
            return
        schema = site_cache.SCHEMAS[kind]
        found = site_cache.read_cached(file, schema)
        if found is not None:
            schema.validate_python(found)  # what is used has the shape its pages read


@pytest.fixture(scope="module")
def listed() -> str:
    with tempfile.TemporaryDirectory() as folder:
        before = os.environ.get("BOUILLOTTE_CACHE")
        os.environ["BOUILLOTTE_CACHE"] = folder
        try:
            return CliRunner().invoke(app, ["variants", "list", "--json"]).stdout
        finally:  # as it was: later tests of this worker read the session's own folder
            if before is None:
                os.environ.pop("BOUILLOTTE_CACHE", None)
            else:
                os.environ["BOUILLOTTE_CACHE"] = before


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(generated=cache_files())
def test_a_generated_listing_cache_never_changes_the_list(
    generated: tuple[str, str, str], listed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(Rows of the right shape sealed anew are left out: whoever can seal them runs as the
    user, and can change the tool itself.)"""
    _, payload, how = generated
    assume(how != "sealed" or listing._rows(payload) is None)
    with tempfile.TemporaryDirectory() as folder:
        monkeypatch.setenv("BOUILLOTTE_CACHE", folder)
        path = listing._cache_file(())
        assert path is not None
        _write(path, payload, how)
        result = CliRunner().invoke(app, ["variants", "list", "--json"])
        assert result.exit_code == 0 and result.stdout == listed
