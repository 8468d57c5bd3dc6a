"""game_start reads the seats under the game's lock (as joins and the host's reordering take it): a
reorder that arrives while the start is setting up waits for it and is then refused, never applied to
seats the started game no longer follows. PostgreSQL only: SQLite has no row locks."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections, connection

from games import services
from games.engines.registry import get_engine
from games.errors import Conflict
from games.models import Game
from games.seating import seats_reorder

from .factories import actor, make_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_reorder_during_the_start_waits_and_is_refused(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL (the second pass)")
    code, tokens = make_game(players=3, start=False)
    engine = get_engine("toy")
    in_setup, carry_on = threading.Event(), threading.Event()
    real_setup = type(engine).setup

    def slow_setup(self, **kwargs):
        in_setup.set()
        assert carry_on.wait(10)
        return real_setup(self, **kwargs)

    monkeypatch.setattr(type(engine), "setup", slow_setup)
    outcome: dict = {}

    def reorder():
        try:
            assert in_setup.wait(10)
            outcome["reorder"] = seats_reorder(code=code, actor=actor(code, tokens[0]), order=[2, 1, 0])
        except Conflict as exc:
            outcome["reorder"] = exc.code
        finally:
            close_old_connections()

    other = threading.Thread(target=reorder)
    other.start()
    in_setup_then_go = threading.Thread(target=lambda: in_setup.wait(10) and (other.join(0.5), carry_on.set()))
    in_setup_then_go.start()  # the reorder is waiting on the lock by the time the start carries on
    services.game_start(code=code, actor=actor(code, tokens[0]))
    in_setup_then_go.join(20)
    other.join(20)
    assert outcome["reorder"] == "game-started"
    game = Game.objects.get(code=code)
    assert [p for p in game.state["players"]] == [s.name for s in game.seats.order_by("index")]
