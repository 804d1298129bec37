"""The lobby's form is made from the rules' table the server serves
(``GET /api/rules/options``): every option, with its label and note in the page's language,
disabled in a variant it is not played in, and sent as the table types it.

Playwright drives Debian's ``chromium``; the screenshot goes to ``artifacts/lobby/``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from serverkit import Server
from test_server_browser import ARTIFACTS, CHROMIUM, module_fixtures

from euchre.i18n import catalog_json
from euchre.rules import OPTIONS

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

SHOTS = ARTIFACTS / "lobby"


server, browser = module_fixtures("lobby")


def _click(page: Any, selector: str) -> None:
    page.eval_on_selector(selector, "e => e.click()")


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_lobbys_form_has_every_option_of_the_rules_table(
        server: Server, browser: Any, locale: str) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale=locale)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#rules-fields .checks")
    words = catalog_json(locale[:2], "web")["messages"]
    assert isinstance(words, dict)
    for n in (2, 3, 4, 5):
        _click(page, f"input[name=players][value='{n}']")
        _click(page, "input[name=joker]")  # the joker turned up is asked with the joker
        text = page.inner_text("#new-form")
        for o in OPTIONS:
            inputs = page.locator(f"#new-form input[name={o.name}]")
            assert inputs.count() >= 1, (n, o.name)
            assert (words.get(o.label) or o.label) in text, o.label
            disabled = inputs.first.is_disabled()
            assert disabled == (n not in o.variants), (n, o.name)
        _click(page, "input[name=joker]")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"lobby-{locale}.png"), full_page=True)
    # sent as the table types each option: the variant's, those chosen, only those enabled
    _click(page, "input[name=players][value='3']")
    _click(page, "input[name=joker]")
    _click(page, "input[name=joker_turnup][value='suit:H']")
    _click(page, "input[name=deck][value='28']")
    page.fill("input[name=target]", "7")
    with page.expect_request(lambda r: r.method == "POST"
                             and r.url.endswith("/api/tables")) as request:
        page.click("#create")
    sent = json.loads(request.value.post_data)["rules"]
    assert sent == {"players": 3, "deck": 28, "joker": True, "joker_turnup": "suit:H",
                    "stick_the_dealer": False, "dealer_must_take_up": False,
                    "defend_alone": True, "target": 7}
    assert errors == []
    context.close()
