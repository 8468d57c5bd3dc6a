"""Play again (games/rematch.py): at game over any seat asks and the table goes on to one next game with
the same title, options, clock, listing, people, accounts, bots and colours, the turn order turned by
one; every ask (first or later, any device, a retry) gets the same game and the asker's own token there;
spectators and unfinished games are refused; the old game's summary names the next one; over HTTP."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import rematch, services
from games.errors import Conflict, Unauthorized
from games.models import Game, Seat
from games.selectors import actor_for_token, game_summary
from tests.games.factories import actor, make_game

pytestmark = pytest.mark.django_db


def finished_game(players: int = 3, bots: int = 0, **kwargs) -> tuple[str, dict[int, str]]:
    """A toy race of ``players`` people (seat 0 the host) and ``bots`` bots, played to its end by seat 0."""
    code, tokens = make_game(players=players, options={"target": 5}, start=False, **kwargs)
    for _ in range(bots):
        services.seat_add_bot(code=code, actor=actor(code, tokens[0]), bot="random")
    services.game_start(code=code, actor=actor(code, tokens[0]))
    while Game.objects.get(code=code).status == Game.Status.ACTIVE:
        game = Game.objects.get(code=code)
        seat = game.state["turn"]
        if seat in tokens:
            services.game_command(code=code, actor=actor(code, tokens[seat]), command={"cmd": "add", "n": 3})
        else:  # a bot's turn (bots run inline in tests)
            break
    assert Game.objects.get(code=code).status == Game.Status.FINISHED
    return code, tokens


def test_the_first_ask_makes_the_next_game_with_the_same_table_and_the_turn_order_turned_by_one():
    ann = get_user_model().objects.create_user("ann")
    code, tokens = finished_game(players=3, turn_seconds=None)
    Seat.objects.filter(game__code=code, index=1).update(user=ann, color="sky")
    old = Game.objects.get(code=code)
    asked = rematch.game_rematch(code=code, actor=actor(code, tokens[1]))
    assert asked.created and asked.seat == 0 and not asked.is_host  # the old second seat sits first
    nxt = asked.game
    assert (nxt.kind, nxt.options, nxt.status, nxt.listed, nxt.turn_seconds) == (old.kind, {"target": 5}, "lobby", old.listed, old.turn_seconds)
    seats = list(nxt.seats.order_by("index").values_list("name", "color", "is_host", "is_bot", "user_id"))
    before = {s.index: s for s in old.seats.all()}
    assert seats == [(before[i].name, before[i].color, before[i].is_host, False, before[i].user_id) for i in (1, 2, 0)]
    assert Game.objects.get(code=code).next_game_id == nxt.pk
    assert game_summary(Game.objects.get(code=code))["next_game"] == nxt.code
    assert actor_for_token(game=nxt, token=asked.token).seat == 0  # the token is the asker's new seat's
    assert Seat.objects.filter(game=nxt, user=ann).get().index == 0  # her account holds it: My games lists it


def test_every_later_ask_gets_the_same_game_and_each_seat_its_own_token_the_same_every_time():
    code, tokens = finished_game(players=3)
    first = rematch.game_rematch(code=code, actor=actor(code, tokens[2]))
    again = rematch.game_rematch(code=code, actor=actor(code, tokens[2]))  # a retry, or a second device
    assert (again.game.pk, again.token, again.created) == (first.game.pk, first.token, False)
    host = rematch.game_rematch(code=code, actor=actor(code, tokens[0]))
    other = rematch.game_rematch(code=code, actor=actor(code, tokens[1]))
    assert host.game.pk == other.game.pk == first.game.pk and Game.objects.filter(kind="toy").count() == 2
    nxt = first.game
    assert host.is_host and host.seat == 2 and actor_for_token(game=nxt, token=host.token).is_host
    assert actor_for_token(game=nxt, token=other.token).seat == 0 and not actor_for_token(game=nxt, token=other.token).is_host
    assert len({first.token, host.token, other.token}) == 3
    services.game_start(code=nxt.code, actor=actor_for_token(game=nxt, token=host.token))  # the host starts it as usual
    assert Game.objects.get(pk=nxt.pk).status == Game.Status.ACTIVE


def test_bots_stay_bots_and_a_seat_a_bot_kept_for_its_person_is_theirs_again():
    code, tokens = finished_game(players=2, bots=1)
    Seat.objects.filter(game__code=code, index=1).update(is_bot=True, away=True, bot="random")  # the clock gave it away
    nxt = rematch.game_rematch(code=code, actor=actor(code, tokens[0])).game
    seats = {s.name: (s.is_bot, s.bot) for s in nxt.seats.all()}
    assert seats["P1"] == (False, "")
    assert [v for k, v in seats.items() if k not in ("P1", "Host")] == [(True, "random")]


def test_a_spectator_or_a_game_not_over_is_refused_and_nothing_is_made():
    code, tokens = finished_game(players=2)
    with pytest.raises(Unauthorized) as refused:
        rematch.game_rematch(code=code, actor=actor(code, None))
    assert refused.value.code == "token-required"
    running, running_tokens = make_game(players=2, options={"target": 50})
    with pytest.raises(Conflict) as early:
        rematch.game_rematch(code=running, actor=actor(running, running_tokens[1]))
    assert early.value.code == "game-not-finished"
    assert Game.objects.count() == 2 and Game.objects.filter(next_game__isnull=False).count() == 0


def test_the_host_table_screen_without_a_seat_gets_the_host_token_of_the_next_game():
    created = services.game_create(kind="toy", options={"target": 3})  # a table screen: no name, no seat
    code = created.game.code
    tokens = {}
    for i in range(2):
        seat, token, _ = services.seat_join(code=code, name=f"P{i}")
        tokens[seat.index] = token
    services.game_start(code=code, actor=actor(code, created.host_token))
    services.game_command(code=code, actor=actor(code, tokens[Game.objects.get(code=code).state["turn"]]), command={"cmd": "add", "n": 3})
    asked = rematch.game_rematch(code=code, actor=actor(code, created.host_token))
    assert asked.is_host and asked.seat is None
    who = actor_for_token(game=asked.game, token=asked.token)
    assert who.is_host and who.seat is None and asked.game.seats.count() == 2


def test_over_http(client):
    code, tokens = finished_game(players=2)
    answer = client.post(f"/api/games/{code}/rematch", HTTP_AUTHORIZATION=f"Bearer {tokens[1]}")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert set(body) == {"code", "token", "seat", "host", "created"} and body["created"] and body["seat"] == 0
    assert client.get(f"/api/games/{code}").json()["next_game"] == body["code"]
    mine = client.get(f"/api/games/{body['code']}/state", HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert mine.status_code == 200 and mine.json()["seat"] == 0
    nobody = client.post(f"/api/games/{code}/rematch")
    assert nobody.status_code == 401 and nobody.json()["error"]["code"] == "token-required"
    stranger = client.post(f"/api/games/{code}/rematch", HTTP_AUTHORIZATION="Bearer not-a-token")
    assert stranger.status_code == 401


def test_the_next_game_keeps_the_time_bank():
    code, tokens = finished_game(players=2, bank_seconds=600, increment_seconds=20)
    nxt = rematch.game_rematch(code=code, actor=actor(code, tokens[1])).game
    assert (nxt.turn_seconds, nxt.bank_seconds, nxt.increment_seconds, nxt.watched) == (None, 600, 20, True)
