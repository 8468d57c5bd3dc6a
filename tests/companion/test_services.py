"""The board in the ORM, the snapshot a new game takes, and the per-game read model."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection, transaction

from companion.models import Board, City, Contract, IndependentRailroad, PlayerProgress, Route
from companion.selectors import board_data, board_default
from companion.services import DEFAULT_BOARD_FILE
from games import services
from games.selectors import game_get
from tests.games.factories import actor
from tests.support.boards import ensure_wood_and_steel_board

pytestmark = pytest.mark.django_db


def canonical(data):
    return json.dumps(data, sort_keys=True)


def test_migration_loads_the_default_board_and_it_round_trips():
    board = board_default()
    assert (board.cities.count(), board.routes.count(), board.commodities.count()) == (56, 104, 25)
    reference = json.loads(DEFAULT_BOARD_FILE.read_text())
    data = board_data(board)
    assert canonical(sorted(data["cities"], key=lambda c: c["name"])) == canonical(sorted(reference["cities"], key=lambda c: c["name"]))
    assert canonical(sorted(data["routes"], key=lambda r: (r["a"], r["b"]))) == canonical(sorted(reference["routes"], key=lambda r: (r["a"], r["b"])))
    atlanta = City.objects.get(board=board, name="Atlanta")
    assert sorted(atlanta.commodities.values_list("name", flat=True)) == ["coal", "cotton", "textiles"]


def start_ws_game(players: int = 3, options=None):
    ensure_wood_and_steel_board()  # a transactional test's flush removes what the migration loaded
    created = services.game_create(kind="wood-and-steel", host_name="P0", options=options)
    code = created.game.code
    tokens = {0: created.host_token}
    for i in range(1, players):
        seat, token, _ = services.seat_join(code=code, name=f"P{i}")
        tokens[seat.index] = token
    services.game_start(code=code, actor=actor(code, created.host_token))
    return code, tokens


def test_a_new_game_snapshots_the_board_as_edited_by_a_game_master():
    board = board_default()
    route = Route.objects.get(board=board, city_a__name="Atlanta", city_b__name="Birmingham")
    route.length = 3
    route.save()
    code, _ = start_ws_game()
    game = game_get(code=code)
    routes = {(r["a"], r["b"]): r["length"] for r in game.options["board"]["routes"]}
    assert routes[("Atlanta", "Birmingham")] == 3
    from games.selectors import game_summary

    assert "board" not in game_summary(game)["options"]
    # Editing the map later does not touch this game.
    route.length = 1
    route.save()
    assert {(r["a"], r["b"]): r["length"] for r in game_get(code=code).options["board"]["routes"]}[("Atlanta", "Birmingham")] == 3


def test_read_model_follows_every_command():
    code, tokens = start_ws_game()
    assert PlayerProgress.objects.filter(game__code=code).count() == 3
    assert IndependentRailroad.objects.filter(game__code=code).count() >= 6  # 9–12 railroads, 3 of them players
    game = game_get(code=code)
    from games.engines.registry import get_engine

    engine = get_engine("wood-and-steel")
    # Every seat ranks its routes (the first legal ranking), which settles starting routes.
    for seat in range(3):
        command = engine.legal_commands(game_get(code=code).state, seat=seat)[0]
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=command)
    game = game_get(code=code)
    progress = {p.seat: p for p in PlayerProgress.objects.filter(game=game)}
    for player in game.state["players"]:
        assert progress[player["seat"]].start_route == (player["start_route"] or "")
    contracts = Contract.objects.filter(game=game)
    assert contracts.count() == len(game.state["contracts"])
    for c in game.state["contracts"]:
        row = contracts.get(contract_id=c["id"])
        assert (row.kind, row.commodity, row.destination, row.holder, row.status, row.value) == (
            c["type"], c["commodity"], c["destination"], c["holder"], c["status"], c["value"])


def test_read_model_active_cities_are_start_cities_then_deliveries():
    from games.engines.registry import get_engine

    engine = get_engine("wood-and-steel")
    code, tokens = start_ws_game(2, options={"check_network": False})

    def send(seat, command):
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=command)

    for seat in range(2):
        send(seat, engine.legal_commands(game_get(code=code).state, seat=seat)[0])
    for seat in range(2):
        send(seat, engine.legal_commands(game_get(code=code).state, seat=seat)[-1])  # the second start city

    def rows():
        return {p.seat: p.active_cities for p in PlayerProgress.objects.filter(game__code=code)}

    state = game_get(code=code).state
    for p in state["players"]:
        a, b = p["start_route"].split("-")
        assert rows()[p["seat"]] == p["active_cities"] == [x for x in (a, b) if x != p["engine_city"]] + [p["engine_city"]]
    seat = state["current_seat"]
    held = next(c for c in state["contracts"] if c["id"] == state["players"][seat]["private"])
    send(seat, {"cmd": "fulfill-contract", "contract": held["id"]})
    state = game_get(code=code).state
    assert rows()[seat] == state["players"][seat]["active_cities"]
    assert rows()[seat][-1] == held["destination"] and len(rows()[seat]) == 3


def test_board_without_a_default_is_a_clear_error():
    Board.objects.update(is_default=False)
    from games.errors import ServiceError

    with pytest.raises(ServiceError) as err:
        services.game_create(kind="wood-and-steel", host_name="A")
    assert (err.value.code, err.value.status) == ("no-default-board", 503)


def _read_model(code):
    def values(model):
        fields = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
        return sorted(tuple(json.dumps(getattr(row, f), sort_keys=True) for f in fields) for row in model.objects.filter(game__code=code))

    return [values(model) for model in (PlayerProgress, Contract, IndependentRailroad)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-statement rewrite is PostgreSQL's")
def test_read_model_rewrite_in_one_statement_writes_what_the_orm_writes():
    from django.test.utils import CaptureQueriesContext

    from companion.services import _projection_rows, _rows_replace_orm, game_projection_sync
    from games.engines.registry import get_engine

    engine = get_engine("wood-and-steel")
    code, tokens = start_ws_game()
    rng = random.Random(5)
    for _ in range(25):  # along a game: rankings, start cities, contracts, deliveries, railroads
        state = game_get(code=code).state
        seat = engine.active_seats(state)[0]
        command = engine.bot_command(state, seat=seat, bot="simple", rng=rng)
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=command)
        game = game_get(code=code)
        _rows_replace_orm(game.pk, _projection_rows(game.state))
        expected = _read_model(code)
        with CaptureQueriesContext(connection) as queries:
            game_projection_sync(game, game.state)
        assert len(queries) == 1
        assert _read_model(code) == expected
        assert sum(map(len, expected)) > 0


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-statement rewrite is PostgreSQL's")
def test_read_model_rewrite_leaves_unchanged_rows_untouched_and_follows_removed_rows():
    """Only rows whose values changed are written (the others keep their tuple); a row
    whose key left the state is deleted, a new key inserted."""
    from companion.services import _projection_rows, game_projection_sync

    code, _ = start_ws_game()
    game = game_get(code=code)
    state = json.loads(json.dumps(game.state))
    game_projection_sync(game, state)

    def versions():
        with connection.cursor() as cursor:
            cursor.execute("SELECT seat, ctid::text FROM companion_playerprogress WHERE game_id = %s ORDER BY seat", [game.pk])
            return dict(cursor.fetchall())

    before = versions()
    assert len(before) == len(state["players"]) == 3
    state["players"][1]["money"] += 7
    game_projection_sync(game, state)
    after = versions()
    assert after[1] != before[1] and {s: v for s, v in after.items() if s != 1} == {s: v for s, v in before.items() if s != 1}
    assert PlayerProgress.objects.get(game=game, seat=1).money == state["players"][1]["money"]
    state["players"] = state["players"][:2]
    game_projection_sync(game, state)
    assert sorted(PlayerProgress.objects.filter(game=game).values_list("seat", flat=True)) == [0, 1]
    assert [{f: getattr(p, f) for f in row} for p, row in zip(
        PlayerProgress.objects.filter(game=game).order_by("seat"), _projection_rows(state)[0][1], strict=True)
    ] == _projection_rows(state)[0][1]


def test_read_model_ties_are_the_spectator_views_ties_along_a_game():
    from games.engines.registry import get_engine

    engine = get_engine("wood-and-steel")
    code, tokens = start_ws_game()
    rng = random.Random(11)
    seen_ties = False
    for _ in range(40):
        state = game_get(code=code).state
        seat = engine.active_seats(state)[0]
        services.game_command(code=code, actor=actor(code, tokens[seat]), command=engine.bot_command(state, seat=seat, bot="simple", rng=rng))
        view = {p["seat"]: p for p in engine.view(game_get(code=code).state, seat=None)["players"]}
        for row in PlayerProgress.objects.filter(game__code=code):
            assert (row.ties, row.ties_by_source) == (view[row.seat]["ties"], view[row.seat]["tie_breakdown"])
            seen_ties = seen_ties or row.ties > 0
    assert seen_ties  # the game got far enough for ties to count


# --- a Wood and Steel move saved with its read model in one message (PostgreSQL, autocommit) ---

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-message save is PostgreSQL's")


def _bot_move(code, tokens, rng):
    from games.engines.registry import get_engine

    engine = get_engine("wood-and-steel")
    state = game_get(code=code).state
    seat = engine.active_seats(state)[0]
    return seat, engine.bot_command(state, seat=seat, bot="simple", rng=rng)


def _log(code):
    from games.models import Action

    return list(Action.objects.filter(game__code=code).order_by("sequence").values_list("sequence", "command"))


def _save_on(game, seat, command, command_id):
    """``command`` applied to ``game`` as loaded and saved with ``store.move_save`` (its answer)."""
    from django.utils import timezone

    from games import store
    from games.engines.registry import get_engine

    events = get_engine("wood-and-steel").apply(game.state, seat=seat, command=command)
    return store.move_save(game=game, state=game.state, seat=seat, command=command, events=events,
                           command_id=command_id, finished=False, now=timezone.now())


def _expected_read_model(code):
    """The read model as the ORM writes it for the game's current state (then put back as it was)."""
    from companion.services import _projection_rows, _rows_replace_orm

    game = game_get(code=code)
    before = _read_model(code)
    with transaction.atomic():
        _rows_replace_orm(game.pk, _projection_rows(game.state))
        expected = _read_model(code)
        transaction.set_rollback(True)
    assert _read_model(code) == before
    return expected


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_move_and_its_read_model_are_saved_in_one_statement(monkeypatch):
    from django.test.utils import CaptureQueriesContext

    from games import store

    sent = []
    original = store._execute
    monkeypatch.setattr(store, "_execute", lambda sql, params: sent.append(sql) or original(sql, params))
    code, tokens = start_ws_game()
    rng = random.Random(3)
    for i in range(12):
        seat, command = _bot_move(code, tokens, rng)
        player = actor(code, tokens[seat])
        sent.clear()
        with CaptureQueriesContext(connection) as queries:
            services.game_command(code=code, actor=player, command=command, command_id=f"m{i}")
        saves = [sql for sql in sent if "INSERT INTO" in sql]
        assert len(saves) == 1 and "companion_playerprogress" in saves[0] and "companion_contract" in saves[0]
        assert len(sent) <= 2 and not queries.captured_queries  # the save (+ a load when not remembered), no ORM query
        assert _read_model(code) == _expected_read_model(code)
    assert [seq for seq, _ in _log(code)] == list(range(1, 14))


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_lost_compare_and_set_writes_neither_the_move_nor_the_read_model():
    from games import store

    code, tokens = start_ws_game()
    rng = random.Random(4)
    stale = store.game_load(code=code, command_id=None, fresh=True)
    seat, command = _bot_move(code, tokens, rng)
    services.game_command(code=code, actor=actor(code, tokens[seat]), command=command)  # another writer wins
    rows, log = _read_model(code), _log(code)
    assert not _save_on(stale, seat, command, command_id="late")
    assert (_read_model(code), _log(code)) == (rows, log)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_command_id_used_concurrently_writes_neither_the_move_nor_the_read_model():
    from django.db import IntegrityError

    from games import store

    code, tokens = start_ws_game()
    rng = random.Random(5)
    seat, command = _bot_move(code, tokens, rng)
    services.game_command(code=code, actor=actor(code, tokens[seat]), command=command, command_id="dup")
    rows, log = _read_model(code), _log(code)
    game = store.game_load(code=code, command_id=None, fresh=True)
    seat, command = _bot_move(code, tokens, rng)
    with pytest.raises(IntegrityError):
        _save_on(game, seat, command, command_id="dup")
    assert (_read_model(code), _log(code)) == (rows, log)


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_wood_and_steel_moves_of_a_remembered_game_are_saved_on_the_event_loop(monkeypatch):
    from asgiref.sync import async_to_sync

    code, tokens = start_ws_game()
    in_thread = []
    original = services.game_command
    monkeypatch.setattr(services, "game_command", lambda **kw: in_thread.append(kw["command"]) or original(**kw))
    rng = random.Random(6)
    for i in range(10):
        seat, command = _bot_move(code, tokens, rng)
        async_to_sync(services.game_command_async)(code=code, actor=actor(code, tokens[seat]), command=command, command_id=f"l{i}")
        assert _read_model(code) == _expected_read_model(code)
    assert len(in_thread) == 1  # only the first: nothing was remembered yet, the database thread loaded it
    assert [seq for seq, _ in _log(code)] == list(range(1, 12))
