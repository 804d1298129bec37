"""The languages euchre speaks, and which one a player gets.

English is the source language: every message is written in English in the code and
looked up in a catalog (``euchre/locale/<lang>/LC_MESSAGES/<domain>.mo``, compiled from
the ``.po`` file beside it by ``make`` or the package build).  Anything a catalog lacks
stays English.  Two domains: ``euchre`` (the terminal, and words the server renders
itself) and ``web`` (the page's JavaScript).

This module only chooses and loads; it imports nothing outside the standard library.

>>> negotiate(["es_ES.UTF-8", "de_AT@euro", "fr"])
'de'
>>> from_environment({"LANG": "fr_CA.UTF-8"}), from_environment({"LC_ALL": "C", "LANG": "da"})
('fr', 'en')
>>> from_accept_language("en;q=0.5, da-DK, fr;q=0.8")
'da'
>>> translation("de").gettext("No such message: English stays")
'No such message: English stays'
"""

from __future__ import annotations

import functools
import gettext
import os
import re
import struct
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

__all__ = [
    "DOMAINS",
    "LANGUAGES",
    "LOCALE_DIR",
    "catalog_json",
    "from_accept_language",
    "from_environment",
    "negotiate",
    "translation",
]

LANGUAGES: Final = ("en", "fr", "de", "da")
"""English (the source language, the fallback), French, German and Danish."""

DOMAINS: Final = ("euchre", "web")
"""``euchre``: the Python side; ``web``: the page's JavaScript."""

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
"""The catalogs: ``<lang>/LC_MESSAGES/<domain>.po`` and the compiled ``.mo``."""

ENVIRONMENT: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables that choose the language of messages, in gettext's order."""

_TAG = re.compile(r"[A-Za-z]+")


def _language_of(tag: str) -> str | None:
    """The supported language a locale name or language tag means, if any:
    ``de_DE.UTF-8`` and ``de-CH`` are ``de``; ``C`` and ``POSIX`` are English.

    >>> [_language_of(t) for t in ("de_DE.UTF-8", "fr-CH", "C.UTF-8", "POSIX", "es", "")]
    ['de', 'fr', 'en', 'en', None, None]
    """
    name = tag.strip().split(".")[0].split("@")[0]
    if name in ("C", "POSIX"):
        return "en"
    head = _TAG.match(name)
    if head is None:
        return None
    lang = head[0].lower()
    return lang if lang in LANGUAGES else None


def negotiate(preferences: Iterable[str]) -> str:
    """The first supported language among ``preferences`` (locale names such as
    ``de_DE.UTF-8``, language tags such as ``fr-CH``), else English.

    >>> negotiate(["pt-BR", "da"]), negotiate([]), negotiate(["nb_NO"])
    ('da', 'en', 'en')
    """
    for tag in preferences:
        lang = _language_of(tag)
        if lang is not None:
            return lang
    return "en"


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (default: this process's).

    As gettext reads them: the first of ``LANGUAGE`` (a colon-separated list of
    preferences), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set and not empty
    decides; ``C`` or ``POSIX`` there means English, and so does a language euchre does
    not speak.  As in GNU gettext, ``LANGUAGE`` is not heeded when the locale that
    ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` sets is ``C`` or ``POSIX``.

    >>> from_environment({"LANGUAGE": "es:de", "LANG": "fr_FR.UTF-8"})
    'de'
    >>> from_environment({"LANGUAGE": "de", "LC_ALL": "C"})
    'en'
    >>> from_environment({"LANGUAGE": "", "LC_MESSAGES": "da_DK.UTF-8", "LANG": "de_DE"})
    'da'
    >>> from_environment({})
    'en'
    """
    env = os.environ if environ is None else environ
    locale = next((env[v] for v in ENVIRONMENT[1:] if env.get(v)), "")
    if env.get("LANGUAGE") and _language_of(locale) != "en":
        return negotiate(env["LANGUAGE"].split(":"))
    return negotiate([locale])


def from_accept_language(header: str) -> str:
    """The language a browser's ``Accept-Language`` header prefers: the supported one
    with the highest q-value (ties: the first listed); ``q=0`` means "not this one".

    >>> from_accept_language("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")
    'fr'
    >>> from_accept_language("es, de;q=0.2, da;q=0.3"), from_accept_language("da;q=0, *")
    ('da', 'en')
    """
    ranked: list[tuple[float, int, str]] = []
    for k, part in enumerate(header.split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = _language_of(tag) if tag not in ("*", "C", "POSIX") else None
        if lang is not None and q > 0:
            ranked.append((-q, k, lang))
    return min(ranked)[2] if ranked else "en"


def _mo_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo"


@functools.cache
def translation(lang: str, domain: str = "euchre") -> gettext.NullTranslations:
    """The messages of ``domain`` in ``lang``: English (the messages as written) for
    ``en``, for a language euchre does not speak, and for any message a catalog lacks.

    >>> translation("en").ngettext("{n} trick", "{n} tricks", 2)
    '{n} tricks'
    """
    if lang not in LANGUAGES or lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE_DIR, [lang], fallback=True)


def _read_mo(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (original, translation) pairs of a compiled catalog, in its order."""
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    pairs = []
    for k in range(count):
        olen, ooff = struct.unpack(order + "2I", data[originals + 8 * k:originals + 8 * k + 8])
        tlen, toff = struct.unpack(order + "2I",
                                   data[translations + 8 * k:translations + 8 * k + 8])
        pairs.append((data[ooff:ooff + olen], data[toff:toff + tlen]))
    return pairs


_PLURAL = re.compile(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?")


def catalog_json(lang: str, domain: str = "web") -> dict[str, object]:
    """A catalog as JSON for the page: ``{"lang", "nplurals", "plural", "messages"}``.

    ``messages`` maps each English message to its translation; a message with plural
    forms (keyed by its singular) maps to the list of forms, and ``plural`` is the
    catalog's C expression of ``n`` that picks the form's index (``(n != 1)``).  A
    message with a context is keyed ``context + "\\x04" + message``, as gettext does.
    English and a missing catalog give no messages: the page shows its own words.

    >>> catalog_json("en")
    {'lang': 'en', 'nplurals': 2, 'plural': '(n != 1)', 'messages': {}}
    """
    out: dict[str, object] = {"lang": "en", "nplurals": 2, "plural": "(n != 1)",
                              "messages": {}}
    path = _mo_path(lang, domain)
    if lang not in LANGUAGES or lang == "en" or not path.is_file():
        return out
    messages: dict[str, str | list[str]] = {}
    for original, translated in _read_mo(path.read_bytes()):
        text = translated.decode("utf-8")
        if not original:  # the header
            found = next((_PLURAL.search(line) for line in text.splitlines()
                          if line.lower().startswith("plural-forms:")), None)
            if found is not None:
                out["nplurals"], out["plural"] = int(found[1]), found[2].strip()
            continue
        key = original.decode("utf-8").split("\x00")[0]
        messages[key] = text.split("\x00") if b"\x00" in original else text
    out["lang"] = lang
    out["messages"] = messages
    return out
