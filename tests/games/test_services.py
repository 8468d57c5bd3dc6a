"""The write path: compare-and-set, idempotent command ids, gapless log, replay."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.errors import Conflict, Forbidden, ServiceError, Unauthorized
from games.models import Action, Game
from games.replay import game_replay
from games.selectors import game_get

from .factories import actor, make_game

pytestmark = pytest.mark.django_db


def add(code, token, n=1, **kw):
    return services.game_command(code=code, actor=actor(code, token), command={"cmd": "add", "n": n}, **kw)


def test_command_advances_version_and_appends_one_action():
    code, tokens = make_game()
    result = add(code, tokens[0], 2)
    assert result.version == 2
    assert result.events[0] == {"type": "added", "seat": 0, "n": 2, "roll": result.events[0]["roll"], "counter": 2}
    game = game_get(code=code)
    assert game.version == 2 and game.state["counter"] == 2
    assert list(game.actions.values_list("sequence", flat=True)) == [1, 2]


def test_rules_error_changes_nothing():
    code, tokens = make_game()
    before = game_get(code=code)
    with pytest.raises(ServiceError) as err:
        add(code, tokens[1], 1)  # not seat 1's turn
    assert err.value.code == "not-your-turn" and err.value.status == 400
    after = game_get(code=code)
    assert (after.version, after.state) == (before.version, before.state)
    assert Action.objects.filter(game=after).count() == 1


def test_retried_command_id_returns_first_result_and_changes_nothing():
    code, tokens = make_game()
    first = add(code, tokens[0], 3, command_id="abc")
    again = add(code, tokens[0], 3, command_id="abc")
    assert (again.version, again.events) == (first.version, first.events)
    assert again.duplicate and not first.duplicate
    game = game_get(code=code)
    assert game.version == 2 and game.state["counter"] == 3


def test_command_id_of_another_seat_is_refused():
    code, tokens = make_game()
    add(code, tokens[0], 1, command_id="same")
    with pytest.raises(Conflict) as err:
        add(code, tokens[1], 1, command_id="same")
    assert err.value.code == "duplicate-command-id"


@pytest.mark.parametrize("remembered", [False, True], ids=["loaded", "remembered"])
def test_a_command_id_reused_for_another_command_is_refused_naming_the_first(remembered):
    """Same seat, same id, another body: 409 command-id-reused naming the first command, nothing
    written. ``remembered``: the game comes from this process's memory (no idempotency lookup),
    so the refusal comes from the log's unique id at the save."""
    from games import store

    code, tokens = make_game()
    first = add(code, tokens[0], 1, command_id="mine")
    add(code, tokens[1], 2)  # seat 0 is on turn again: its other command would be legal
    if not remembered:
        store.forget()
    before = game_get(code=code)
    with pytest.raises(Conflict) as err:
        add(code, tokens[0], 3, command_id="mine")
    assert err.value.code == "command-id-reused" and err.value.status == 409
    assert "action 2" in err.value.message and '{"cmd":"add","n":1}' in err.value.message
    assert err.value.extra["first"] == {"sequence": first.version, "command": {"cmd": "add", "n": 1}}
    assert err.value.extra["version"] == before.version
    after = game_get(code=code)
    assert (after.version, after.state) == (before.version, before.state)
    again = add(code, tokens[0], 1, command_id="mine")  # the same command again: the first result
    assert again.duplicate and (again.version, again.events) == (first.version, first.events)


def test_stale_expected_version_is_a_conflict_with_current_version():
    code, tokens = make_game()
    add(code, tokens[0], 1, expected_version=1)
    with pytest.raises(Conflict) as err:
        add(code, tokens[1], 1, expected_version=1)
    assert err.value.code == "stale-version" and err.value.extra == {"version": 2}
    assert game_get(code=code).version == 2


def test_spectator_and_unknown_tokens_cannot_act():
    code, tokens = make_game()
    with pytest.raises(Unauthorized):
        add(code, None, 1)
    other_code, other_tokens = make_game()
    with pytest.raises(Forbidden) as err:
        actor(code, other_tokens[1])
    assert err.value.code == "wrong-game"
    with pytest.raises(Unauthorized):
        actor(code, "not-a-token")


def test_finished_game_refuses_commands_and_replay_equals_state():
    code, tokens = make_game(options={"target": 5})
    seat = 0
    while game_get(code=code).status == Game.Status.ACTIVE:
        add(code, tokens[seat], 2)
        seat = 1 - seat
    game = game_get(code=code)
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    with pytest.raises(Conflict) as err:
        add(code, tokens[seat], 1)
    assert err.value.code == "game-finished"
    assert game_replay(game=game) == game.state
    sequences = list(game.actions.values_list("sequence", flat=True))
    assert sequences == list(range(1, game.version + 1))


def test_join_rules_full_started_and_rejoin():
    created = services.game_create(kind="toy", host_name="Host")
    code = created.game.code
    tokens = [services.seat_join(code=code, name=f"P{i}")[1] for i in range(3)]
    with pytest.raises(Conflict) as err:
        services.seat_join(code=code, name="Late")
    assert err.value.code == "game-full"
    seat, token, created_flag = services.seat_join(code=code, name="ignored", token=tokens[1])
    assert (seat.index, token, created_flag) == (2, None, False)
    services.game_start(code=code, actor=actor(code, created.host_token))
    with pytest.raises(Conflict) as err:
        services.seat_join(code=code, name="Later")
    assert err.value.code in {"game-started", "game-full"}


def test_start_needs_host_and_enough_players():
    created = services.game_create(kind="toy", host_name="Host")
    code = created.game.code
    with pytest.raises(ServiceError) as err:
        services.game_start(code=code, actor=actor(code, created.host_token))
    assert err.value.code == "not-enough-players"
    _, p1, _ = services.seat_join(code=code, name="P1")
    with pytest.raises(Forbidden):
        services.game_start(code=code, actor=actor(code, p1))
    services.game_start(code=code, actor=actor(code, created.host_token))
    with pytest.raises(Conflict):
        services.game_start(code=code, actor=actor(code, created.host_token))


def test_join_codes_are_unique_and_unambiguous():
    codes = {services.game_create(kind="toy").game.code for _ in range(60)}
    assert len(codes) == 60
    assert all(len(c) == 5 and not set(c) & set("01IOL") for c in codes)


def test_bots_play_their_turns_through_the_write_path(django_capture_on_commit_callbacks):
    created = services.game_create(kind="toy", host_name="Host", options={"target": 30})
    code = created.game.code
    host = actor(code, created.host_token)
    services.seat_add_bot(code=code, actor=host, bot="random")
    services.game_start(code=code, actor=host)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        add(code, created.host_token, 1)
    assert callbacks, "bots and broadcasts wait for the commit"
    game = game_get(code=code)
    assert game.state["turn"] == 0, "the bot (seat 1) moved right after the host"
    bot_action = game.actions.get(sequence=3)
    assert bot_action.seat == 1 and bot_action.command_id == "bot:2:1"


def test_unknown_kind_and_bad_options_are_clear_errors():
    with pytest.raises(ServiceError) as err:
        services.game_create(kind="chess")
    assert err.value.code == "unknown-kind"
    with pytest.raises(ServiceError) as err:
        services.game_create(kind="toy", options={"target": "ten"})
    assert err.value.code == "invalid-option"
    with pytest.raises(ServiceError) as err:
        services.game_create(kind="toy", options={"colour": 1})
    assert err.value.code == "invalid-option"


@pytest.mark.django_db(transaction=True)
def test_racing_clients_exactly_one_wins_per_version():
    """Real concurrency: threads with their own connections race on one version."""
    code, tokens = make_game(players=2, options={"target": 1000})
    barrier = threading.Barrier(8)
    outcomes: list[tuple[str, int]] = []
    lock = threading.Lock()

    def race(i: int) -> None:
        try:
            barrier.wait()
            try:
                result = add(code, tokens[0], 1, expected_version=1, command_id=f"race-{i}")
                outcome = ("ok", result.version)
            except Conflict as exc:
                outcome = (exc.code, exc.extra.get("version"))
            with lock:
                outcomes.append(outcome)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(outcomes) == 8
    assert outcomes.count(("ok", 2)) == 1
    assert sorted(outcomes).count(("stale-version", 2)) == 7
    game = game_get(code=code)
    assert game.version == 2 and game.state["counter"] == 1
    assert list(game.actions.values_list("sequence", flat=True)) == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_racing_without_expected_version_all_apply_in_a_gapless_log():
    code, tokens = make_game(players=2, options={"target": 1000})
    game = game_get(code=code)
    # Make every seat's move legal at any time by having seat 0 and 1 alternate:
    # instead race many commands for the *same* seat ids through retries.
    barrier = threading.Barrier(6)
    results: list[object] = []

    def race(i: int) -> None:
        try:
            barrier.wait()
            try:
                results.append(add(code, tokens[0], 1, command_id=f"r{i}").version)
            except ServiceError as exc:
                results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game.refresh_from_db()
    accepted = [r for r in results if isinstance(r, int)]
    refused = [r for r in results if isinstance(r, str)]
    # Seat 0 may only move on its own turn: exactly one wins, the others are told why.
    assert accepted == [2] and sorted(set(refused)) == ["not-your-turn"] and len(refused) == 5
    assert list(game.actions.values_list("sequence", flat=True)) == [1, 2]


def test_a_failing_broadcast_never_fails_the_committed_command(django_capture_on_commit_callbacks, monkeypatch):
    from games import broadcast

    code, tokens = make_game()

    def explode(*args, **kwargs):
        raise RuntimeError("channel layer down")

    monkeypatch.setattr(broadcast, "game_messages", explode)
    with django_capture_on_commit_callbacks(execute=True):
        result = add(code, tokens[0], 1)
    assert result.version == 2 and game_get(code=code).version == 2
