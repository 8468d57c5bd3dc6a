"""Tables of signed-in players for the players tests: a toy race whose seats are signed-in players',
played to its end, with each write's after-commit work (the listeners) run as it returns."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game, Seat
from games.turns import game_watch
from tests.games.factories import actor, make_game


def user(name: str):
    return get_user_model().objects.create_user(name, f"{name}@example.com")  # no password: no hashing


_committing: list = []


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Each write's after-commit work (the game-finished listener) runs when the write returns, as
    it would outside the test's transaction."""
    _committing.append(django_capture_on_commit_callbacks)
    yield
    _committing.pop()


def committed(write, **kwargs):
    with _committing[-1](execute=True):
        return write(**kwargs)


def table(users: dict[int, object], players: int = 2, bots: int = 0, target: int = 3) -> tuple[str, dict[int, str]]:
    """A started toy race (``target``) of ``players`` people (seat 0 is the host) and ``bots`` bots, whose
    seats ``users`` are signed-in players' (so the game is watched, as when they join signed in)."""
    code, tokens = make_game(players=players, options={"target": target}, start=False)
    for _ in range(bots):
        services.seat_add_bot(code=code, actor=actor(code, tokens[0]), bot="random")
    game = Game.objects.get(code=code)
    for index, owner in users.items():
        Seat.objects.filter(game=game, index=index).update(user=owner)
    game_watch(game_id=game.pk)
    services.game_start(code=code, actor=actor(code, tokens[0]))
    return code, tokens


def play(code: str, tokens: dict[int, str], moves: list[tuple[int, int]]) -> Game:
    for seat, n in moves:
        committed(services.game_command, code=code, actor=actor(code, tokens[seat]), command={"cmd": "add", "n": n})
    game = Game.objects.get(code=code)
    assert game.status == Game.Status.FINISHED
    return game
