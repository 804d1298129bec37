"""No message tells a seat, or a spectator, more than RULES §12 allows.

Many games in every variant, played over real WebSockets by random players (and a few
bots), with a spectator at every table.  Every message any connection receives is kept;
once each game is over its record (which holds every hand) is fetched, each state message
is matched to the exact moment of the deal it describes, and the cards it names are
checked against what that seat may know at that moment.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx2
import pytest
from serverkit import Database, running_server
from websockets.asyncio.client import connect

from euchre.actions import ActionKind
from euchre.bots import BOTS
from euchre.deal import Deal, Phase

CARD = re.compile(r"^(?:[789TJQKA][CDHS]|JK)$")
FORBIDDEN_KEYS = {"kitty", "hands", "dealt", "token", "seed", "dealt_dummy"}

# bots that think in a worker thread, where they exist
EXPERT = "expert" if "expert" in BOTS else "basic"
INTERMEDIATE = "intermediate" if "intermediate" in BOTS else "basic"

# (rules, seats): "p" a person (a test client), or a bot level
CONFIGS: list[tuple[dict[str, Any], list[str]]] = [
    ({"players": 2, "target": 5}, ["p", "p"]),
    ({"players": 2, "target": 5, "stick_the_dealer": True, "joker": True, "deck": 32,
      "joker_turnup": "suit:S"}, ["p", "p"]),
    ({"players": 3, "target": 5}, ["p", "p", "p"]),
    ({"players": 3, "target": 5, "joker": True, "stick_the_dealer": True,
      "defend_alone": False}, ["p", EXPERT, "p"]),
    ({"players": 4, "target": 5}, ["p", "p", "p", "p"]),
    ({"players": 4, "target": 5, "defend_alone": True, "dealer_must_take_up": True,
      "stick_the_dealer": True}, ["p", "p", "random", "p"]),
    ({"players": 4, "target": 3, "draw": True, "rubber": True}, ["p", "p", "p", "basic"]),
    ({"players": 4, "target": 5, "joker": True, "deck": 28}, ["p", "p", "p", "p"]),
    ({"players": 5, "target": 5}, ["p", "p", "p", "p", "p"]),
    ({"players": 5, "target": 5, "deck": 32, "joker": True, "joker_turnup": "suit:D"},
     ["p", "p", "p", INTERMEDIATE, "p"]),
]
GAMES_PER_CONFIG = 2


async def _player(url: str, rng: random.Random, log: list[dict[str, Any]],
                  before_acting: Callable[[dict[str, Any]], Awaitable[None]] | None = None
                  ) -> None:
    """A random player (or, without acting, a spectator): keeps every message it gets.

    ``before_acting``, when given, is awaited with the state before each of its actions (a
    test holds the game at a player's turn with it)."""
    acted = -1
    async with connect(url, max_size=2**22) as ws:
        async for raw in ws:
            m = json.loads(raw)
            log.append(m)
            if m["type"] == "error":
                assert m["code"] == "stale", m  # only a repeated state may cause one
                continue
            if m["type"] != "state":
                continue
            if m["over"]:
                return
            deal = m["deal"]
            if (m["you"] is not None and deal["to_move"] == m["you"] and deal["legal"]
                    and m["seq"] > acted):
                acted = m["seq"]
                if before_acting is not None:
                    await before_acting(m)
                action = rng.choice(deal["legal"])
                await ws.send(json.dumps({"type": "act", "action": action, "seq": m["seq"]}))


async def _play_table(base: str, rules: dict[str, Any], seats: list[str], seed: int,
                      http: httpx2.AsyncClient) -> dict[str, Any]:
    choices = [{"kind": "you" if i == 0 else "friend", "name": f"P{i}"} if s == "p"
               else {"kind": "bot", "bot": s} for i, s in enumerate(seats)]
    r = await http.post("/api/tables", json={"rules": rules, "seats": choices,
                                             "private": False})
    assert r.status_code == 201, r.text
    answer = r.json()
    tid = answer["id"]
    tokens = {0: answer["token"]} if answer["token"] else {}
    for invite in answer["invites"]:  # each friend opens the invitation: a seat token
        joined = await http.post(f"/api/tables/{tid}/join",
                                 json={"invite": invite["invite"], "name": ""})
        assert joined.status_code == 200, joined.text
        tokens[invite["place"]] = joined.json()["token"]
    ws = base.replace("http", "ws") + f"/ws/{tid}"
    logs: dict[int | None, list[dict[str, Any]]] = {None: []}
    tasks = [asyncio.create_task(_player(ws, random.Random(seed), logs[None]))]
    for place, token in tokens.items():
        logs[place] = []
        tasks.append(asyncio.create_task(
            _player(f"{ws}?token={token}", random.Random(seed * 10 + place), logs[place])))
    await asyncio.wait_for(asyncio.gather(*tasks), 240)
    record = (await http.get(f"/api/tables/{tid}/matches/1/record")).json()
    return {"id": tid, "tokens": list(tokens.values()), "logs": logs,
            "records": record if isinstance(record, list) else [record]}


# -- the oracle: what a seat may know at a given moment (RULES §12) --------------------------
def _true_deal(records: list[dict[str, Any]], game: int, number: int, actions: int) -> Deal:
    rec = records[game]
    deal_rec = rec["deals"][number]
    return Deal.from_record({**deal_rec, "rules": rec["rules"],
                             "actions": deal_rec["actions"][:actions]})


def _known(deal: Deal, seat: int | None) -> set[str]:
    record = deal.to_record().to_json()
    known = {record["turnup"]}
    for e in deal.events:
        if e.action is not None and e.action.kind is ActionKind.PLAY:
            known.add(str(e.action.card))
    if deal.called is not None:
        known.add(str(deal.called))
    if seat is None:
        return known
    known.update(record["hands"][seat])
    for e in deal.events:
        if e.seat == seat and e.action is not None and e.action.kind is ActionKind.DISCARD:
            known.add(str(e.action.card))
    before_dummy = (Phase.BID_TURNUP, Phase.BID_SUIT, Phase.NAME_TRUMP, Phase.EXCHANGE)
    if (deal.n == 3 and deal.maker == seat and not deal.alone
            and deal.phase not in before_dummy and record["dummy"]):
        known.update(record["dummy"])  # the maker took the dummy up (RULES §6)
    return known


def _strings(obj: Any, path: str = "") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert k not in FORBIDDEN_KEYS, f"forbidden key {k!r} at {path}"
            out += _strings(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _strings(v, f"{path}[{i}]")
    elif isinstance(obj, str):
        out.append((path, obj))
    return out


def _cards_named(message: dict[str, Any]) -> set[str]:
    cards = set()
    for path, text in _strings(message):
        if path.startswith(".deal.legal") and text.startswith("call "):
            continue  # the cards a maker may call are any not in hand: no knowledge
        for word in text.split():
            if CARD.match(word):
                cards.add(word)
    return cards


def _hand_sizes(deal: Deal) -> list[int]:
    sizes = [bin(deal.hand_mask(s)).count("1") for s in range(deal.n)]
    return sizes


def _check_state(m: dict[str, Any], seat: int | None, records: list[dict[str, Any]]) -> None:
    view = m["deal"]
    game = m["game"]
    number = game["deal"] - 1 if game["over"] else game["deal"]
    truth = _true_deal(records, game["index"], number, len(view["events"]))
    known = _known(truth, seat)
    last = m["last_deal"]
    if last is not None:
        rec = records[last["game"]]["deals"][last["number"]]
        known |= _known(_true_deal(records, last["game"], last["number"], len(rec["actions"])),
                        seat)
    draw = records[0].get("draw")
    if draw is not None:  # the draw for partners is made face up, before any deal (§11)
        known |= {c for row in draw["rounds"] for c in row if c is not None}
    leaked = _cards_named(m) - known
    assert not leaked, f"seat {seat} was shown {sorted(leaked)} at state {m['seq']}"
    assert view["turnup"] == str(truth.to_record().turnup)
    assert view["hand_sizes"] == _hand_sizes(truth)
    called_played = truth.called is not None and any(
        e.action is not None and e.action.kind is ActionKind.PLAY
        and e.action.card == truth.called for e in truth.events)
    for shown, true in zip(view["events"], truth.events, strict=True):
        assert shown["seat"] == true.seat
        assert true.action is not None
        if true.action.kind is ActionKind.DISCARD and seat != true.seat:
            assert shown["action"] is None, f"seat {seat} saw {true.seat}'s discard"
        else:
            assert shown["action"] == str(true.action)
    assert view["revealed"] == (called_played and truth.partner is not None)
    if seat is None:
        assert view["hand"] is None and view["dummy"] is None and view["discards"] is None
        assert view["legal"] == []
        assert view["partner"] is None or called_played
        return
    assert sorted(view["hand"]) == sorted(str(c) for c in truth.hand(seat))
    own = [str(e.action.card) for e in truth.events
           if e.seat == seat and e.action is not None and e.action.kind is ActionKind.DISCARD]
    assert view["discards"] == own
    if truth.to_move == seat and not m["over"]:
        assert view["legal"] == [str(a) for a in truth.legal_actions()]
    else:
        assert view["legal"] == []
    if view["partner"] is not None:
        assert view["partner"] == truth.partner
        assert seat == truth.partner or called_played, "the secret partner was revealed"


def _check_table(result: dict[str, Any]) -> int:
    checked = 0
    records = result["records"]
    for place, log in result["logs"].items():
        seat = None
        for m in log:
            text = json.dumps(m)
            for token in result["tokens"]:
                assert token not in text, "a seat token was sent over the table's socket"
            if m["type"] == "hello":
                seat = m["seat"]
                assert (seat is None) == (place is None)
            elif m["type"] == "state":
                assert m["you"] == seat
                _check_state(m, seat, records)
                checked += 1
        assert log and log[-1]["type"] == "state" and log[-1]["over"]
    return checked


def test_no_message_shows_a_seat_or_a_spectator_more_than_rules_12_allows(
        database: Database) -> None:
    async def main(base: str) -> list[dict[str, Any]]:
        async with httpx2.AsyncClient(base_url=base, timeout=30) as http:
            jobs = [_play_table(base, rules, seats, seed=100 * k + g, http=http)
                    for k, (rules, seats) in enumerate(CONFIGS)
                    for g in range(GAMES_PER_CONFIG)]
            return list(await asyncio.gather(*jobs))

    with running_server(database("leak")) as srv:
        results = asyncio.run(main(srv.base))
    total = sum(_check_table(r) for r in results)
    games = sum(len(r["records"]) for r in results)
    assert games >= len(CONFIGS) * GAMES_PER_CONFIG
    assert total > 5000, f"only {total} state messages were checked"


def test_the_oracle_catches_a_leak() -> None:
    """The checker itself: a state message showing another seat's card fails it."""
    from euchre.game import Game
    from euchre.records import game_record
    from euchre.rules import Rules
    from euchre.server.views import deal_view, game_view

    game = Game(Rules(players=4), seed=5)
    records = [game_record(game).to_json()]
    view = deal_view(game.deal, 0)
    message = {"type": "state", "seq": 0, "you": 0, "over": False, "last_deal": None,
               "game": game_view(game, 0), "deal": view}
    _check_state(message, 0, records)
    message["deal"] = {**view, "hand": [*view["hand"][:4], str(game.deal.hand(1)[0])]}
    with pytest.raises(AssertionError):
        _check_state(message, 0, records)
