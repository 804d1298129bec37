"""The links that give a person their seat, over HTTP: an invitation checked when its
page opens (nothing spent), the host link that gives the host's own seat on another
device, and the review of your decisions at a private table, which your seat token opens.
Every refusal is a 4xx that changes nothing."""

from __future__ import annotations

from typing import Any

from serverkit import Database, Server, play_out, running_server

FRIEND = [{"kind": "you", "name": "Ann"}, {"kind": "friend"}]


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code


def _seats(server: Server, tid: str, key: str) -> list[dict[str, Any]]:
    """A private table's seats, read with one of its keys."""
    seats: list[dict[str, Any]] = server.http.get(
        f"/api/tables/{tid}", headers={"X-Euchre-Key": key}).json()["seats"]
    return seats


def test_an_invitation_is_checked_without_being_spent(server: Server) -> None:
    answer = server.create({"players": 2, "target": 3}, FRIEND, private=True)
    tid, invite = answer["id"], answer["invites"][0]["invite"]
    check = f"/api/tables/{tid}/invitation"
    for _ in range(2):  # checked twice: still good, and the seat still waits
        r = server.http.post(check, json={"invite": invite})
        assert r.status_code == 200
        assert r.json() == {"id": tid, "place": 1, "name": "", "players": 2, "seat": ""}
    assert _seats(server, tid, answer["host"])[1]["claimed"] is False
    _refused(server.http.post(check, json={"invite": "forged-" + "x" * 20}), 403,
             "bad_invitation")
    _refused(server.http.post(check, json={}), 403, "bad_invitation")
    _refused(server.http.post("/api/tables/nope/invitation", json={"invite": invite}), 404,
             "no_table")
    server.seat(answer, 1, "Bob")
    spent = server.http.post(check, json={"invite": invite})
    _refused(spent, 409, "invitation_spent")
    assert spent.json()["params"] == {"watch": False, "place": 1}
    assert _seats(server, tid, answer["host"])[1]["name"] == "Bob"  # the check changed nothing


def test_the_host_link_gives_the_host_s_own_seat_and_nothing_to_anyone_else(
        server: Server) -> None:
    answer = server.create({"players": 2, "target": 3}, FRIEND, private=True)
    tid = answer["id"]
    url = f"/api/tables/{tid}/host/seat"
    r = server.http.post(url, json={"host": answer["host"]})
    assert r.status_code == 200
    assert r.json() == {"id": tid, "place": 0, "token": answer["token"]}
    bob = server.seat(answer, 1, "Bob")
    for wrong in (bob, answer["token"], answer["invites"][0]["invite"], "x" * 30):
        _refused(server.http.post(url, json={"host": wrong}), 403, "not_host")
    _refused(server.http.post(url, json={}), 422, "invalid_request")
    # a table made with bots only has a host too; one whose host gave the seat away
    # answers no seat
    server.http.post(f"/api/tables/{tid}/host/invite", json={"host": answer["host"],
                                                             "place": 0})
    r = server.http.post(url, json={"host": answer["host"]})
    assert r.status_code == 200 and r.json()["token"] is None


def test_the_review_opens_at_a_private_table_with_the_seat_token(database: Database) -> None:
    with running_server(database("euchre")) as server:
        answer = server.create({"players": 2, "target": 1},
                               [{"kind": "you", "name": "Ann"},
                                {"kind": "bot", "bot": "basic"}], private=True)
        tid, token = answer["id"], answer["token"]
        play_out(server, tid, token)
        review = f"/api/tables/{tid}/matches/1/review"
        # the watch link's key, the host's, an invitation or a made-up token opens no
        # seat: no review, and no word of the game
        watch = answer["watch_url"].rsplit("=", 1)[1]
        for wrong in (watch, answer["host"], "x" * 30, ""):
            r = server.http.get(review, headers={"X-Seat-Token": wrong})
            _refused(r, 403, "bad_token")
        _refused(server.http.get(review), 403, "bad_token")
        r = server.http.get(review, headers={"X-Seat-Token": token}, timeout=120)
        assert r.status_code == 200, r.text
        assert r.json()["match"] == 1 and isinstance(r.json()["decisions"], list)
        # the replay of the game, for the same seat, with its token in the header
        r = server.http.get(f"/api/tables/{tid}/matches/1/replay",
                            headers={"X-Seat-Token": token})
        assert r.status_code == 200
        _refused(server.http.get(f"/api/tables/{tid}/matches/1/replay",
                                 headers={"X-Seat-Token": "x" * 30}), 403, "private")
