"""games/bots.py: the bots' thread waits and tries again when the database is busy or went away (a
restart, a fail-over: 503 database-unavailable at the edges), and gives up on anything else."""

from __future__ import annotations

import psycopg
import pytest
from django.db import OperationalError

from games import bots


@pytest.fixture
def runs(monkeypatch):
    monkeypatch.setattr(bots.time, "sleep", lambda _s: None)
    monkeypatch.setattr(bots, "close_old_connections", lambda: None)
    calls: list[int] = []

    def factory(failures: list[BaseException]):
        def bots_run(*, game_id: int, delay: float) -> int:
            calls.append(game_id)
            if failures:
                raise failures.pop(0)
            return 1
        monkeypatch.setattr(bots, "bots_run", bots_run)
        return calls
    return factory


def lost_server() -> OperationalError:
    """What Django raises when PostgreSQL went away under a statement (psycopg's error as its cause)."""
    try:
        raise psycopg.OperationalError("server closed the connection unexpectedly")
    except psycopg.OperationalError as cause:
        try:
            raise OperationalError("server closed the connection unexpectedly") from cause
        except OperationalError as exc:
            return exc


def test_a_database_that_went_away_is_tried_again_until_the_bots_move(runs):
    calls = runs([lost_server(), lost_server()])
    bots._run_thread(7)
    assert calls == [7, 7, 7]  # two failures, then the moves


def test_any_other_failure_stops_the_bots(runs):
    calls = runs([ValueError("a defect")])
    bots._run_thread(7)
    assert calls == [7]
