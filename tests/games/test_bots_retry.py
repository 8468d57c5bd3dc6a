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


def test_a_request_to_move_that_comes_while_the_thread_runs_is_not_lost(runs, monkeypatch):
    """A person's move committed after the bots' thread last looked (it found no bot on turn) but before it
    ended: that commit's request finds the thread still running. The thread looks once more before ending;
    before, the request was dropped and the bot never moved (a first game stalled on PostgreSQL in CI)."""
    calls: list[int] = []

    def bots_run(*, game_id: int, delay: float) -> int:
        calls.append(game_id)
        if len(calls) == 1:
            bots.bots_schedule(game_id)  # the commit that lands between the last look and the end
        return 0

    monkeypatch.setattr(bots, "bots_run", bots_run)
    monkeypatch.setattr(bots.settings, "JUNCTION_BOTS_INLINE", False)
    started: list[int] = []
    monkeypatch.setattr(bots.threading, "Thread", lambda target, args, **_kw: type(
        "T", (), {"start": lambda self: (started.append(args[0]), target(*args))})())
    bots.bots_schedule(7)
    assert calls == [7, 7]
    assert started == [7]  # one thread, which looked twice
    assert 7 not in bots._running  # and ended; the next request starts a thread again
    bots.bots_schedule(7)
    assert started == [7, 7]


def test_a_thread_that_failed_lets_the_next_request_start_one(runs):
    runs([ValueError("a defect")])
    bots._running[8] = False
    bots._run_thread(8)
    assert 8 not in bots._running
