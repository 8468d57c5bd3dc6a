"""Every engine's declared commands agree with its rules: each command the rules list as legal
fits its spec, every spec has rules behind it, and every view fits the declared view fields."""

from __future__ import annotations

import random

import pytest

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE as LW
from games.engines.resourceful_rails import ENGINE as RR
from games.engines.runerail import ENGINE as RUNE
from games.engines.slipway import ENGINE as SLIP
from games.engines.specs import Obj, command_check
from games.engines.wood_and_steel import ENGINE as WS
from tests.support.toy_engine import ENGINE as TOY

ENGINES = {"locomotive-werks": (LW, 3), "wood-and-steel": (WS, 3), "resourceful-rails": (RR, 3),
           "runerail": (RUNE, 3), "slipway": (SLIP, 3), "toy": (TOY, 2)}


def play(engine, players: int, seed: int, bots: list[str], max_moves: int):
    """Bot moves until the game ends (or ``max_moves``): yields (state, seat) before each move."""
    state = engine.setup(players=[f"P{i}" for i in range(players)], options=engine.normalize_options({}), seed=seed)
    rng = random.Random(seed)
    for _ in range(max_moves):
        if engine.is_finished(state):
            return
        seat = engine.active_seats(state)[0]
        yield state, seat
        engine.apply(state, seat=seat, command=engine.bot_command(state, seat=seat, bot=bots[seat], rng=rng))


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_every_legal_command_fits_its_spec_and_every_view_its_fields(kind):
    engine, players = ENGINES[kind]
    view_shape = Obj(engine.view_fields)
    seen: set[str] = set()
    for seed in (1, 2):
        bots = [engine.bots[(seed + i) % len(engine.bots)] for i in range(players)]
        for n, (state, _seat) in enumerate(play(engine, players, seed, bots, max_moves=1500)):
            for active in engine.active_seats(state):
                for command in engine.legal_commands(state, seat=active):
                    command_check(engine.command_table, command)
                    seen.add(command["cmd"])
            if n % 25 == 0:
                for viewer in (None, *range(players)):
                    assert view_shape.problem(engine.view(state, seat=viewer)) is None, (viewer, view_shape.problem(engine.view(state, seat=viewer)))
    assert seen, "the bots' games listed no legal command"


def test_wood_and_steel_has_rules_for_exactly_its_declared_commands():
    assert set(WS._HANDLERS) == set(WS.command_table)


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_declared_commands_have_help_and_every_argument_too(kind):
    engine, _ = ENGINES[kind]
    assert engine.commands
    for spec in engine.command_specs():
        assert spec.help.strip() and spec.help.endswith(".")
        for arg in spec.args:
            assert arg.help.strip(), (spec.name, arg.name)
    for field in engine.view_fields:
        assert field.help.strip(), field.name


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_an_unknown_command_and_an_unknown_argument_are_refused_before_the_rules(kind):
    engine, players = ENGINES[kind]
    state = engine.setup(players=[f"P{i}" for i in range(players)], options=engine.normalize_options({}), seed=3)
    seat = engine.active_seats(state)[0]
    legal = engine.legal_commands(state, seat=seat)[0]
    for command, code in (({"cmd": "teleport"}, "unknown-command"), ({**legal, "seat": seat}, "invalid-command"),
                          ({**legal, "cmd": 5}, "invalid-command"), ([legal], "invalid-command")):
        with pytest.raises(RulesError) as err:
            engine.apply(state, seat=seat, command=command)
        assert err.value.code == code, command
