"""Resign (games/resign.py, games/results.py): a player leaves in the open and finishes last. With one
other seat left the game ends and it wins; with more, the title's bot plays the seat to the end and its
player cannot take it back; the ending, ratings and records all rank the resigner last; refusals are
coded; the same through HTTP and the command ``resign``."""

from __future__ import annotations

import pytest

from games import services
from games.errors import Conflict, Forbidden, Unauthorized
from games.models import Action, Game, Seat
from games.resign import SEAT_RESIGNED, seat_resign
from games.results import game_places, places_with_resignations
from games.selectors import state_payload
from players.models import GameRecord, RatingChange
from tests.games.factories import actor, make_game
from tests.players.tables import commit, committed, table, user  # noqa: F401  (commit: a fixture)

pytestmark = pytest.mark.django_db


def test_places_put_the_resigned_last_the_last_to_resign_best_of_them():
    assert places_with_resignations([1, 2, 3, 4], [0]) == [4, 1, 2, 3]
    assert places_with_resignations([1, 1, 3, 4], [3, 0]) == [3, 1, 2, 4]  # 3 resigned first: last of all
    assert places_with_resignations([2, 1, 2], []) == [2, 1, 2]


def test_in_a_two_player_game_the_other_player_wins_at_once():
    code, tokens = make_game(players=2, options={"target": 50})
    result = seat_resign(code=code, actor=actor(code, tokens[1]))
    game = Game.objects.get(code=code)
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert result.version == game.version
    last = Action.objects.get(game=game, sequence=game.version)
    assert last.command["action"] == SEAT_RESIGNED and last.events[0] | {} == {
        "type": SEAT_RESIGNED, "seat": 1, "name": "P1", "by": "player", "then": "game-over"}
    assert game_places(game=game) == [1, 2]
    ending = state_payload(game=game, seat=0)["result"]
    assert ending["how"] == "P1 resigned, so Host won."
    assert [(row["seat"], row["place"]) for row in ending["ranking"]] == [(0, 1), (1, 2)]


@pytest.mark.usefixtures("commit")
def test_with_more_players_the_bot_plays_on_and_the_resigner_finishes_last():
    code, tokens = make_game(players=3, options={"target": 12})
    committed(seat_resign, code=code, actor=actor(code, tokens[0]))  # seat 0 is on turn: its bot moves after commit (inline in tests)
    seat = Seat.objects.get(game__code=code, index=0)
    assert seat.is_bot and seat.bot == "random" and seat.resigned_at is not None and not seat.away
    game = Game.objects.get(code=code)
    assert game.status == Game.Status.ACTIVE and game.state["turn"] == 1  # the bot played seat 0's turn
    assert services.seat_return(code=code, actor=actor(code, tokens[0])) is None  # resigning is not being away
    while (game := Game.objects.get(code=code)).status == Game.Status.ACTIVE:
        committed(services.game_command, code=code, actor=actor(code, tokens[game.state["turn"]]), command={"cmd": "add", "n": 3})
    places = game_places(game=game)
    assert places[0] == 3 and 1 in places[1:] and max(places[1:]) <= 2  # if its bot won, the other two share first
    ending = state_payload(game=game, seat=None)["result"]
    assert ending["ranking"][-1]["seat"] == 0 and ending["how"].startswith("Host resigned and finishes last.")


def test_refusals_are_coded_and_change_nothing():
    code, tokens = make_game(players=3, options={"target": 50})
    with pytest.raises(Unauthorized):
        seat_resign(code=code, actor=actor(code, None))
    seat_resign(code=code, actor=actor(code, tokens[2]))
    with pytest.raises(Conflict) as twice:
        seat_resign(code=code, actor=actor(code, tokens[2]))
    assert twice.value.code == "already-resigned"
    table_screen = services.game_create(kind="toy", options={"target": 50})
    for name in ("A", "B"):
        services.seat_join(code=table_screen.game.code, name=name)
    services.game_start(code=table_screen.game.code, actor=actor(table_screen.game.code, table_screen.host_token))
    with pytest.raises(Forbidden):
        seat_resign(code=table_screen.game.code, actor=actor(table_screen.game.code, table_screen.host_token))
    lobby, lobby_tokens = make_game(players=2, start=False)
    with pytest.raises(Conflict) as early:
        seat_resign(code=lobby, actor=actor(lobby, lobby_tokens[1]))
    assert early.value.code == "game-lobby"
    assert not Seat.objects.filter(game__code=lobby, resigned_at__isnull=False).exists()


@pytest.mark.usefixtures("commit")
def test_a_rated_game_counts_the_resignation_in_ratings_and_records():
    ann, bob, cy = user("ann"), user("bob"), user("cy")
    code, tokens = table({0: ann, 1: bob})
    committed(seat_resign, code=code, actor=actor(code, tokens[0]))  # ann resigns: bob wins
    changes = {c.user_id: c.rank for c in RatingChange.objects.filter(game__code=code)}
    assert changes == {bob.pk: 1, ann.pk: 2}
    assert dict(GameRecord.objects.filter(game__code=code).values_list("user_id", "place")) == {bob.pk: 1, ann.pk: 2}

    code, tokens = table({0: ann, 1: bob, 2: cy}, players=3, target=9)
    committed(seat_resign, code=code, actor=actor(code, tokens[1]))  # bob resigns: a bot plays on, still rated
    while (game := Game.objects.get(code=code)).status == Game.Status.ACTIVE:  # the bot's moves run inline
        committed(services.game_command, code=code, actor=actor(code, tokens[game.state["turn"]]), command={"cmd": "add", "n": 3})
    ranks = {c.user_id: c.rank for c in RatingChange.objects.filter(game__code=code)}
    assert ranks[bob.pk] == 3 and sorted(ranks.values()) == [1, 2, 3]


def test_over_http_and_as_a_command(client):
    code, tokens = make_game(players=3, options={"target": 50})
    answer = client.post(f"/api/games/{code}/seats/me/resign", HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["result"]["events"][0]["type"] == SEAT_RESIGNED
    assert [s["resigned"] for s in body["game"]["seats"]] == [False, True, False]
    again = client.post(f"/api/games/{code}/seats/me/resign", HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already-resigned"
    command = client.post(f"/api/games/{code}/commands", {"cmd": "resign"}, content_type="application/json",
                          HTTP_AUTHORIZATION=f"Bearer {tokens[2]}")
    assert command.status_code == 200, command.content
    assert Game.objects.get(code=code).status == Game.Status.FINISHED  # two resigned: the host is left and wins
    assert client.get(f"/api/games/{code}/state").json()["result"]["how"] == "P1 and P2 resigned, so Host won."
    assert client.post(f"/api/games/{code}/seats/me/resign").status_code == 401
