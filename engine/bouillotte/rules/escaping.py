"""One escaping discipline per output format: every value a user can write (a work's
author, title or address in an editor's ``sources.yaml``, an identifier of an unread work,
the site's configuration) goes out through the one function of its format here, never
pasted into the output by hand.

- BibTeX: :func:`bibtex_text` for a field's words (no brace, backslash, line break or
  LaTeX special character survives as such: a value can neither close its entry and start
  another, ``@preamble{"\\immediate\\write18{...}"}``, nor run a command when LaTeX reads
  the ``.bbl``), :func:`bibtex_url` for an address (the characters that could end the
  field are percent-encoded).
- CSV: :func:`spreadsheet_text` for a text cell (never a formula in a spreadsheet), and
  :func:`csv_line` for a line (a cell holding a separator of any locale quoted).
- Markdown: :func:`markdown_text` for a plain text put into an editor's prose (a system's
  name where its id is written), read as its words, never as markup.
- CSL-JSON: :func:`csl_text` (one line, no control character; JSON itself is written by
  :mod:`json`).
- HTML and XML: Jinja2 escapes every value (autoescape), after
  :func:`visible_controls` has shown each control character the format forbids as its
  escape (the site's environment's ``finalize``); an address put in an ``href`` goes
  through :func:`safe_url`, which lets through only ``http``, ``https`` and relative
  addresses (never ``javascript:``, ``data:``, ``vbscript:``, ``file:``...), and
  :func:`web_address_fault` refuses any other at load, at its file and line.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Sequence
from typing import Annotated
from urllib.parse import quote, urlsplit

from pydantic import AfterValidator

from .idtext import as_escape

_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

_BIBTEX: dict[str, str] = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "$": r"\$",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "@": "{@}",
}
"""Each character BibTeX or LaTeX reads as more than itself, as LaTeX's command for it.
The braces are written as commands (whose own braces balance), not as ``\\{``: BibTeX
counts a brace after a backslash too, so ``\\{`` alone would leave the entry open."""

_BIBTEX_TABLE = str.maketrans(_BIBTEX)


_BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
"""Unicode's bidirectional embeddings, overrides and isolates: invisible, each turns the
text after it right to left (or back) until its end, so one left open in a title shows
the rest of its line reversed on a page, in a reference manager, in a spreadsheet. Every
format shows each as its escape (``\\u202e``), as the terminal does."""

_BIDI = re.compile(f"[{_BIDI_CONTROLS}]")


def visible_bidi(text: str) -> str:
    """``text`` with each of :data:`_BIDI_CONTROLS` shown as its escape."""
    return _BIDI.sub(as_escape, text) if _BIDI.search(text) else text


def one_line(text: str) -> str:
    """``text`` on one line: every line break or control character a space, runs of
    spaces one, a bidirectional control shown as its escape (:func:`visible_bidi`)."""
    return " ".join(_LINE_BREAKS.sub(" ", visible_bidi(text)).split())


_FORBIDDEN_IN_MARKUP = re.compile(
    f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff{_BIDI_CONTROLS}]"
)
"""The characters HTML and XML forbid in a document (a tab, a line break and a carriage
return aside) that a YAML value still holds when written as an escape in double quotes
(``title: "My \\x04 site"``): YAML refuses them only written as they are; and the
bidirectional controls (:data:`_BIDI_CONTROLS`), which a page must not obey."""


def visible_controls(text: str) -> str:
    """``text`` with each character :data:`_FORBIDDEN_IN_MARKUP` holds shown as its escape
    (``\\u0004``), as the terminal shows it: a page or the sitemap stays well-formed, and the
    reader sees what the value holds."""
    if not _FORBIDDEN_IN_MARKUP.search(text):
        return text
    return _FORBIDDEN_IN_MARKUP.sub(as_escape, text)


def bibtex_text(text: str) -> str:
    """Words for a BibTeX field, inert: on one line, every special character escaped (the
    caller adds the field's braces)."""
    return one_line(text).translate(_BIBTEX_TABLE)


_URL_UNSAFE = re.compile(r"[^A-Za-z0-9\-._~:/?#\[\]!$&'()*+,;=%@\u0080-\U0010ffff]")


def bibtex_url(url: str) -> str:
    """An address for a BibTeX ``url`` field: every character that could end the field or
    the entry (braces, backslash, quotes, spaces, line breaks) percent-encoded; ``%`` and
    ``#`` are left as they are (``\\url`` reads them verbatim)."""
    return _URL_UNSAFE.sub(lambda m: quote(m.group(), safe=""), url)


def csl_text(text: str) -> str:
    """A CSL-JSON string value on one line, without control characters."""
    return one_line(text)


_MARKDOWN_INLINE = re.compile(r"[\\`*_\[\]<>!&#~|]")
"""The characters CommonMark reads as markup wherever they are: emphasis, code, links and
images, autolinks, entities, escapes (and ``#``, ``~``, ``|`` of headings, fences and the
tables of other readers)."""
_MARKDOWN_LINE_START = re.compile(r"^(?:[-+=]|\d+[.)])")
"""What starts a list item or underlines a heading at the start of a line."""


def markdown_text(text: str) -> str:
    """``text`` put into markdown as its words: each character CommonMark would read as
    markup backslash-escaped (``![x](y)`` is written ``\\!\\[x\\](y)`` and shown as
    written)."""
    escaped = _MARKDOWN_INLINE.sub(r"\\\g<0>", text)
    return _MARKDOWN_LINE_START.sub(lambda m: m.group()[:-1] + "\\" + m.group()[-1], escaped)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP's list)."""


_CELL_IN_A_CELL = re.compile(r'(?<=[;\t\r\n])(?="*[=+\-@\t\r])')
"""A formula's first character just after a ``;``, a tab or a line break (and any quotes):
where a spreadsheet reading the file by another separator (``;`` in French and German
locales) or splitting it at the line break starts a cell of its own."""


def spreadsheet_text(text: str) -> str:
    """A text cell of a CSV file, inert in a spreadsheet: an apostrophe before a text that
    would start a formula (``'=HYPERLINK(...)``), as OWASP advises, and before each part of
    it that a spreadsheet reading the file by ``;`` or a tab would take as a cell of its own
    (``Paris;'=cmd|...``); a control character or a bidirectional control shown as its
    escape (:func:`visible_controls`: a tab and a line break stay, which :func:`csv_line`
    quotes). Every CSV this tool writes (the tidy tables, the site's matrix and odds)
    writes its text cells through it."""
    text = _CELL_IN_A_CELL.sub("'", visible_controls(text))
    return "'" + text if text.startswith(FORMULA_STARTS) else text


_CSV_QUOTED = re.compile(r'[,;\t"\r\n]')
"""What a CSV cell is quoted for: a comma, a quote or a line break (RFC 4180), and a
semicolon or a tab, the separators a spreadsheet reads a CSV file with in other locales
(French, German: ``;``), so that a reader by either keeps the cell whole where it honours
quotes. One that splits the line at every ``;`` all the same starts a cell after each: the
apostrophe :func:`spreadsheet_text` puts there keeps a formula out of it."""


def csv_line(cells: Sequence[object]) -> str:
    """One line of a CSV file, ``\n`` ended: each cell as Python's ``csv`` module writes it
    (none empty, a float as ``repr``), quoted where :data:`_CSV_QUOTED` finds a character
    (a quote doubled); a line of one empty cell is ``""``, not a blank line."""
    texts = ["" if c is None else repr(c) if isinstance(c, float) else str(c) for c in cells]
    if texts == [""]:
        return '""\n'
    quoted = ('"' + t.replace('"', '""') + '"' if _CSV_QUOTED.search(t) else t for t in texts)
    return ",".join(quoted) + "\n"


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
SAFE_SCHEMES = ("http", "https")
"""The schemes a link of the site may have; any other address must be relative."""


def scheme(url: str) -> str | None:
    """The scheme of ``url`` as a browser reads it (which first drops spaces, tabs, line
    breaks and control characters: ``java\\tscript:`` is ``javascript:``), lowercased;
    ``None`` for a relative address."""
    cleaned = "".join(c for c in url if c > " " and unicodedata.category(c) != "Cc")
    found = _SCHEME.match(cleaned)
    return found.group(1).lower() if found else None


def safe_url(url: str | None) -> str:
    """``url`` if a link may lead there (``http``, ``https`` or relative), else ``#``."""
    if not url:
        return "#"
    return url if scheme(url) in (None, *SAFE_SCHEMES) else "#"


def web_address_fault(url: str) -> str | None:
    """Why ``url`` is not an ``http://`` or ``https://`` address one can link to, or
    ``None``: it must start so, hold no space, control character or invisible mark (a
    bidirectional control, U+200B, U+FEFF: the address shown would not be the one linked
    to), and none of the
    characters RFC 3986 never lets a URL hold unencoded (``"<>\\^`{|}``: a user
    percent-encodes them). Every output escapes an address its own way all the same
    (``bibtex_url``, HTML attributes), so a stored result or a caller that skips this check
    writes nothing live."""
    if not re.fullmatch(r"https?://[^\s/?#\\]+[^\s\\]*", url, re.IGNORECASE):
        return "the url must be a web address starting with http:// or https://"
    odd = next((c for c in url if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)
    if odd is not None:  # Cf: U+202E would show the address reversed, U+200B hide a part
        what = "a control character" if unicodedata.category(odd) == "Cc" else "an invisible mark"
        return (
            f"the url holds {what} (U+{ord(odd):04X}), which a web address never does: "
            "percent-encode it"
        )
    odd = next((c for c in url if c in _NEVER_IN_A_URL), None)
    if odd is not None:
        return (
            f"the url holds {odd!r}, which a web address never does (RFC 3986): percent-encode it"
        )
    host = _host_fault(url)
    if host is not None:
        return host
    bad = re.search(r"%(?![0-9A-Fa-f]{2})", url)
    if bad is not None:  # each reader would mend it its own way, or not follow it
        return (
            f"the url holds {url[bad.start() : bad.start() + 3]!r}, which is no "
            "percent-encoding: write % as %25, or %XX with two hexadecimal digits (RFC 3986)"
        )
    return None


_HOST_NAME = re.compile(r"(?:[^\W_](?:[\w-]*[^\W_])?\.)*[^\W_](?:[\w-]*[^\W_])?\.?")
"""A host's name: labels of letters, digits and hyphens (in any script), joined by dots."""


def _host_fault(url: str) -> str | None:
    """Why the host or port of ``url`` is none (``example.org:abc``, ``[::1``, ``'``,
    ``%zz``, a port past 65535), or ``None``: a browser, a reference manager and a sitemap
    reader would each read such an address their own way, or not at all."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:  # a port that is no number 0-65535, an unclosed bracket
        return f"the url's host or port is not an address ({exc})"
    host = parts.hostname or ""
    if parts.netloc.rpartition("@")[2].startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return f"the url's host [{host}] is not an IPv6 address"
    elif not _HOST_NAME.fullmatch(host):
        return f"the url's host {host!r} is not a host's name (letters, digits, '-' and '.')"
    if port == 0:
        return "the url's port 0 is no port: write one from 1 to 65535"
    return None


_NEVER_IN_A_URL = frozenset('"<>\\^`{|}')
"""The printable characters RFC 3986 never lets a URL hold unencoded: each could end an
HTML attribute, a BibTeX field or an XML element where the address is written."""


def _linkable(url: str) -> str:
    """``url`` itself, or the :class:`ValueError` pydantic reports at its file and line."""
    fault = web_address_fault(url)
    if fault is not None:
        raise ValueError(fault)
    return url


WebAddress = Annotated[str, AfterValidator(_linkable)]
"""A schema field's type for an address the site links to (:func:`web_address_fault`)."""
