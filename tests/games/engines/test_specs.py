"""games/engines/specs.py: argument types check JSON values and describe themselves; a command
spec refuses what does not fit, naming the argument, with the argument's code."""

from __future__ import annotations

import jsonschema
import pytest

from games.engines.base import Engine, RulesError
from games.engines.specs import (
    UNDO,
    Anything,
    Arg,
    Bool,
    CommandSpec,
    Enum,
    Field,
    Int,
    ListOf,
    Milepost,
    Obj,
    Text,
    command_check,
    command_table,
)


def fits(arg_type, value) -> bool:
    return arg_type.problem(value) is None


def schema_fits(arg_type, value) -> bool:
    """What a JSON Schema validator says of the type's own schema (no OpenAPI-only keywords
    appear in argument types, only in fields: ``nullable``)."""
    try:
        jsonschema.validate(value, {k: v for k, v in arg_type.schema().items() if k != "description"})
    except jsonschema.ValidationError:
        return False
    return True


CASES = [
    (Int(min=1, max=14), [1, 7, 14], [0, 15, -1, True, False, 1.0, 1.5, "1", None, [], {}]),
    (Int(), [0, -5, 10**12], [True, 2.0, "x", None]),
    (Int(min=5000, multiple_of=5000), [5000, 100_000], [0, 2500, 7500, -5000, 5000.0]),
    (Int(max=3), [3, -10], [4]),
    (Bool(), [True, False], [0, 1, "true", None]),
    (Text(), ["a", "x" * 200], ["", "x" * 201, 5, None, ["a"]]),
    (Text(pattern=r"^[a-z]+-[a-z]+$", max_length=20), ["ab-cd"], ["ab", "AB-CD", "ab-cd-"]),
    (Text(min_length=0), [""], [None]),
    (Enum(("american", "mogul")), ["mogul"], ["Mogul", "", 1, None, True]),
    (Enum((5000, 10000)), [5000, 10000], [5000.0, "5000", True, 1]),
    (ListOf(Text(), min_items=1, max_items=3), [["a"], ["a", "b", "c"]], [[], ["a"] * 4, [1], "abc", None, [None]]),
    (ListOf(Int(), unique=True), [[], [1, 2]], [[1, 1]]),
    (Milepost(layers=2, min_coord=-10, max_coord=10), [[0, 0, 0], [1, -10, 10]],
     [[2, 0, 0], [-1, 0, 0], [0, 11, 0], [0, 0, -11], [0, 0], [0, 0, 0, 0], [0, 0.0, 0], [0, True, 0], "0,0,0", None]),
    (Obj((Field("a", Int()), Field("b", Text(), optional=True))), [{"a": 1}, {"a": 1, "b": "x", "c": None}],
     [{}, {"a": "1"}, {"a": 1, "b": 2}, [], None]),
    (Anything(), [None, 1, "x", [], {}], []),
]


@pytest.mark.parametrize(("arg_type", "good", "bad"), CASES, ids=[type(c[0]).__name__ + str(i) for i, c in enumerate(CASES)])
def test_types_check_values_and_their_schema_agrees(arg_type, good, bad):
    for value in good:
        assert fits(arg_type, value), value
        assert schema_fits(arg_type, value), value
    for value in bad:
        problem = arg_type.problem(value)
        assert problem and problem.startswith(("must", "item", "needs", "'")), (value, problem)
        # A JSON Schema validator takes 1.0 for an integer, and OpenAPI 3.0 has no per-position
        # item schemas (a milepost's layer and coordinates share one item bound): those
        # refusals are the check's alone.
        if not (isinstance(value, float) and value.is_integer()) and not isinstance(arg_type, Milepost):
            assert not schema_fits(arg_type, value), value


def test_enum_values_are_all_strings_or_all_whole_numbers():
    with pytest.raises(ValueError):
        Enum(())
    with pytest.raises(ValueError):
        Enum(("a", 1))


def test_milepost_schema_is_a_triple():
    schema = Milepost(layers=3).schema()
    assert schema["type"] == "array" and schema["minItems"] == schema["maxItems"] == 3
    assert schema["items"]["type"] == "integer"


BUILD = CommandSpec(
    "build",
    "Build from one milepost to the next.",
    (
        Arg("path", ListOf(Milepost(layers=1, min_coord=0, max_coord=40), min_items=2, max_items=13), "Mileposts."),
        Arg("color", Enum(("red", "blue")), "Track colour.", optional=True),
        Arg("amount", Int(min=1), "Dollars.", code="bad-amount"),
        Arg("note", Text(max_length=10), "A note.", optional=True, nullable=True),
    ),
)
TABLE = command_table([BUILD, CommandSpec("pass", "Pass.")])


def refusal(command):
    with pytest.raises(RulesError) as err:
        command_check(TABLE, command)
    return err.value.code, err.value.message


def test_a_command_that_fits_passes():
    assert command_check(TABLE, {"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]], "amount": 5}) is BUILD
    assert command_check(TABLE, {"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]], "amount": 5, "color": "red", "note": None}) is BUILD
    assert command_check(TABLE, {"cmd": "pass"}).name == "pass"


@pytest.mark.parametrize(
    ("command", "code", "names"),
    [
        ("pass", "invalid-command", "object"),
        (None, "invalid-command", "object"),
        ([{"cmd": "pass"}], "invalid-command", "object"),
        ({}, "invalid-command", '"cmd"'),
        ({"cmd": 5}, "invalid-command", '"cmd"'),
        ({"cmd": "fly"}, "unknown-command", "'fly'"),
        ({"cmd": "pass", "amount": 5}, "invalid-command", "'amount'"),
        ({"cmd": "build", "amount": 5}, "invalid-command", "'path'"),
        ({"cmd": "build", "path": [[0, 1, 2]], "amount": 5}, "invalid-command", "'path'"),
        ({"cmd": "build", "path": [[0, 1, 2], [1, 1, 3]], "amount": 5}, "invalid-command", "'path' item 1"),
        ({"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]]}, "bad-amount", "'amount'"),
        ({"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]], "amount": 0}, "bad-amount", "'amount'"),
        ({"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]], "amount": 1, "color": "green"}, "invalid-command", "'color'"),
        ({"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]], "amount": 1, "color": None}, "invalid-command", "'color'"),
        ({"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]], "amount": 1, "colour": "red"}, "invalid-command", "'colour'"),
        ({"cmd": "build", "path": [[0, 1, 2], [0, 1, 3]], "amount": 1, "note": "x" * 11}, "invalid-command", "'note'"),
    ],
)
def test_a_command_that_does_not_fit_is_refused_naming_the_argument(command, code, names):
    got_code, message = refusal(command)
    assert got_code == code
    assert names in message


def test_argument_names_are_unique_and_never_cmd():
    with pytest.raises(ValueError):
        CommandSpec("x", "X.", (Arg("cmd", Int()),))
    with pytest.raises(ValueError):
        CommandSpec("x", "X.", (Arg("a", Int()), Arg("a", Text())))
    with pytest.raises(ValueError):
        command_table([CommandSpec("x", "X."), CommandSpec("x", "Y.")])


def test_body_schema_is_closed_and_names_cmd():
    schema = BUILD.schema(extra=(Field("command_id", Text(max_length=64), optional=True),))
    assert schema["additionalProperties"] is False
    assert schema["properties"]["cmd"]["enum"] == ["build"]
    assert schema["required"] == ["cmd", "path", "amount"]
    assert set(schema["properties"]) == {"cmd", "path", "color", "amount", "note", "command_id"}
    assert schema["properties"]["note"]["nullable"] is True
    assert schema["description"] == BUILD.help


def test_to_json_lists_args_with_help_and_schema():
    described = BUILD.to_json()
    assert described["cmd"] == "build" and described["help"] == BUILD.help
    assert [a["name"] for a in described["args"]] == ["path", "color", "amount", "note"]
    color = described["args"][1]
    assert color == {"name": "color", "help": "Track colour.", "optional": True, "nullable": False, "private": False,
                     "schema": {"type": "string", "enum": ["red", "blue"]}}


class _Hidden(Engine):
    """A kind with one hidden choice in its commands and one in its events (games/redaction.py's rules)."""

    kind = "hidden-test"
    title = "Hidden test"
    min_players = 2
    max_players = 3
    commands = (CommandSpec("discard", "Discard a card.", (Arg("card", Int(min=0), "The card.", private=True),
                                                            Arg("why", Int(min=0), "A public reason.", optional=True))),)
    private_events = {"drew": ("card",)}


def test_redact_action_hides_private_arguments_and_event_fields_from_every_other_reader():
    engine = _Hidden()
    command = {"cmd": "discard", "card": 7, "why": 1}
    events = [{"type": "drew", "seat": 1, "card": 9}, {"type": "discarded", "seat": 1}]
    assert engine.redact_action(command, events, actor=1, viewer=1) == (command, events)  # the seat's own: whole
    for viewer in (0, 2, None):  # another seat, a spectator
        shown, said = engine.redact_action(command, events, actor=1, viewer=viewer)
        assert shown == {"cmd": "discard", "card": None, "why": 1, "hidden": ["card"]}
        assert said == [{"type": "drew", "seat": 1, "card": None, "hidden": ["card"]}, {"type": "discarded", "seat": 1}]
    assert command == {"cmd": "discard", "card": 7, "why": 1} and events[0]["card"] == 9  # the log itself untouched
    # an event names its own seat: seat 2's draw in seat 1's action is seat 2's to read
    _shown, said = engine.redact_action({"cmd": "end"}, [{"type": "drew", "seat": 2, "card": 4}], actor=1, viewer=2)
    assert said == [{"type": "drew", "seat": 2, "card": 4}]
    assert engine.command_table["discard"].private_args == ("card",)


class _Rules(Engine):
    kind = "spec-test"
    title = "Spec test"
    min_players = 1
    max_players = 2
    commands = (CommandSpec("pass", "Pass."),)

    def apply_rules(self, state, *, seat, command):
        state["applied"].append(command)
        return [{"type": "passed"}]


class _Undoable(_Rules):
    def turn_key(self, state):
        return 0


def test_apply_checks_the_shape_before_the_rules_run():
    engine = _Rules()
    state = {"applied": []}
    with pytest.raises(RulesError) as err:
        engine.apply(state, seat=0, command={"cmd": "pass", "now": True})
    assert err.value.code == "invalid-command" and state["applied"] == []
    assert engine.apply(state, seat=0, command={"cmd": "pass"}) == [{"type": "passed"}]
    assert state["applied"] == [{"cmd": "pass"}]


def test_kinds_with_a_turn_key_list_the_platforms_undo():
    assert [s.name for s in _Rules().command_specs()] == ["pass"]
    assert _Undoable().command_specs()[-1] is UNDO
    assert [c["cmd"] for c in _Undoable().describe()["commands"]] == ["pass", "undo"]
