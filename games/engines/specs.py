"""Command specs: the shape of every command a game kind takes, declared once.

Each engine lists its commands in its own ``commands.py`` as :class:`CommandSpec` values
(a name, a one-line help, the arguments with their types). Who reads them:

- ``Engine.apply`` (games/engines/base.py) checks a command's shape with
  :func:`command_check` before the rules run: an unknown ``cmd`` is ``unknown-command``,
  a missing, unexpected or ill-typed argument is ``invalid-command`` (or the code the
  argument names, where a kind kept its own) with a message naming the argument;
- ``GET /api/kinds`` lists them with their help texts (:meth:`CommandSpec.to_json`);
- ``/api/schema/`` turns them into one request-body schema per command
  (:meth:`CommandSpec.schema`, games/api/schema.py), and the engines' view fields into
  each kind's state schema;
- the generic play page builds its forms from ``/api/kinds``.

Pure Python, no Django. The types know how to check a JSON value (``problem`` returns
what is wrong, or None) and how to describe themselves as an OpenAPI 3.0 schema
(``schema``), so the check and the documentation cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .base import RulesError

JsonSchema = dict[str, Any]
_ABSENT = object()


class ArgType:
    """What a JSON value must be. Subclasses are frozen dataclasses."""

    def problem(self, value: Any) -> str | None:
        """``None`` when ``value`` fits, else what it must be ("must be …")."""
        raise NotImplementedError

    def schema(self) -> JsonSchema:
        raise NotImplementedError


def _is_int(value: Any) -> bool:
    return type(value) is int  # not bool, not 1.0


@dataclass(frozen=True)
class Int(ArgType):
    """A whole number (JSON integer; never true/false, never 1.0)."""

    min: int | None = None
    max: int | None = None
    multiple_of: int | None = None

    def problem(self, value: Any) -> str | None:
        lo, hi = self.min, self.max
        if _is_int(value) and (lo is None or value >= lo) and (hi is None or value <= hi) and (
            self.multiple_of is None or value % self.multiple_of == 0
        ):
            return None
        if lo is not None and hi is not None:
            wanted = f"a whole number from {lo} to {hi}"
        elif lo is not None:
            wanted = f"a whole number of at least {lo}"
        elif hi is not None:
            wanted = f"a whole number of at most {hi}"
        else:
            wanted = "a whole number"
        if self.multiple_of is not None:
            wanted += f" in steps of {self.multiple_of}"
        return f"must be {wanted}"

    def schema(self) -> JsonSchema:
        out: JsonSchema = {"type": "integer"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        if self.multiple_of is not None:
            out["multipleOf"] = self.multiple_of
        return out


@dataclass(frozen=True)
class Bool(ArgType):
    def problem(self, value: Any) -> str | None:
        return None if isinstance(value, bool) else "must be true or false"

    def schema(self) -> JsonSchema:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Text(ArgType):
    """A string of ``min_length`` to ``max_length`` characters, matching ``pattern`` if given."""

    pattern: str | None = None
    min_length: int = 1
    max_length: int = 200
    _compiled: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.pattern is not None:
            object.__setattr__(self, "_compiled", re.compile(self.pattern))

    def problem(self, value: Any) -> str | None:
        if (
            type(value) is str
            and self.min_length <= len(value) <= self.max_length
            and (self._compiled is None or self._compiled.search(value))
        ):
            return None
        wanted = f"a string of {self.min_length} to {self.max_length} characters"
        if self.pattern is not None:
            wanted += f" matching {self.pattern}"
        return f"must be {wanted}"

    def schema(self) -> JsonSchema:
        out: JsonSchema = {"type": "string", "minLength": self.min_length, "maxLength": self.max_length}
        if self.pattern is not None:
            out["pattern"] = self.pattern
        return out


@dataclass(frozen=True)
class Enum(ArgType):
    """One of ``values`` (all strings, or all whole numbers)."""

    values: tuple[Any, ...]

    def __post_init__(self) -> None:
        kinds = {type(v) for v in self.values}
        if not self.values or not (kinds <= {str} or kinds <= {int}):
            raise ValueError("Enum values must be all strings or all whole numbers")

    def problem(self, value: Any) -> str | None:
        if type(value) in (str, int) and value in self.values and type(value) is type(self.values[0]):
            return None
        return "must be one of " + ", ".join(repr(v) for v in self.values)

    def schema(self) -> JsonSchema:
        return {"type": "string" if type(self.values[0]) is str else "integer", "enum": list(self.values)}


@dataclass(frozen=True)
class ListOf(ArgType):
    """A JSON array of ``item`` values, ``min_items`` to ``max_items`` long."""

    item: ArgType
    min_items: int = 0
    max_items: int | None = None
    unique: bool = False

    def problem(self, value: Any) -> str | None:
        if type(value) is list and len(value) >= self.min_items and (self.max_items is None or len(value) <= self.max_items):
            for i, x in enumerate(value):
                wrong = self.item.problem(x)
                if wrong is not None:
                    return f"item {i} {wrong}"
            if self.unique and len({repr(x) for x in value}) != len(value):
                return "must not repeat an item"
            return None
        if self.max_items is None:
            size = f"at least {self.min_items}"
        elif self.min_items == self.max_items:
            size = str(self.min_items)
        else:
            size = f"{self.min_items} to {self.max_items}"
        return f"must be a list of {size} items"

    def schema(self) -> JsonSchema:
        out: JsonSchema = {"type": "array", "items": self.item.schema()}
        if self.min_items:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        if self.unique:
            out["uniqueItems"] = True
        return out


@dataclass(frozen=True)
class Milepost(ArgType):
    """A milepost of a hex map as ``[layer, q, r]``: three whole numbers, the map layer
    (0 to ``layers`` - 1) and the hex's axial coordinates (``min_coord`` to ``max_coord``)."""

    layers: int = 1
    min_coord: int = -999
    max_coord: int = 999

    def problem(self, value: Any) -> str | None:
        if (
            type(value) is list and len(value) == 3 and all(_is_int(v) for v in value)
            and 0 <= value[0] < self.layers
            and self.min_coord <= value[1] <= self.max_coord and self.min_coord <= value[2] <= self.max_coord
        ):
            return None
        return (
            f"must be a milepost [layer, q, r]: layer 0 to {self.layers - 1}, "
            f"q and r from {self.min_coord} to {self.max_coord}"
        )

    def schema(self) -> JsonSchema:
        coord = {"type": "integer", "minimum": self.min_coord, "maximum": self.max_coord}
        return {
            "type": "array",
            "items": {"type": "integer", "minimum": min(0, self.min_coord), "maximum": max(self.layers - 1, self.max_coord)},
            "minItems": 3,
            "maxItems": 3,
            "description": f"[layer, q, r]: layer 0 to {self.layers - 1}; q, r: {coord['minimum']} to {coord['maximum']}",
        }


@dataclass(frozen=True)
class Obj(ArgType):
    """A JSON object; with ``fields``, those are its known keys (others may follow)."""

    fields: tuple[Field, ...] = ()

    def problem(self, value: Any) -> str | None:
        if type(value) is not dict:
            return "must be an object"
        for f in self.fields:
            if f.name not in value:
                if not f.optional:
                    return f"needs {f.name!r}"
                continue
            wrong = f.problem(value[f.name])
            if wrong is not None:
                return f"{f.name!r} {wrong}"
        return None

    def schema(self) -> JsonSchema:
        return object_schema(self.fields, closed=False)


@dataclass(frozen=True)
class Anything(ArgType):
    """Any JSON value (a view field described by its help only)."""

    def problem(self, value: Any) -> str | None:
        return None

    def schema(self) -> JsonSchema:
        return {}


@dataclass(frozen=True)
class Field:
    """A named value of a JSON object: a command's argument, or a field of a kind's view."""

    name: str
    type: ArgType
    help: str = ""
    optional: bool = False
    nullable: bool = False

    def problem(self, value: Any) -> str | None:
        if value is None and self.nullable:
            return None
        return self.type.problem(value)

    def schema(self) -> JsonSchema:
        out = dict(self.type.schema())
        if self.nullable:
            out["nullable"] = True
        if self.help:
            out["description"] = self.help
        if getattr(self, "private", False):
            out["description"] = (self.help + " " if self.help else "") + (
                "Private: other seats read it in the log as null (listed in the command's \"hidden\") until the game ends."
            )
        return out


@dataclass(frozen=True)
class Arg(Field):
    """A command's argument. ``code``: the error code of a missing or ill-shaped value
    (``invalid-command`` unless the kind kept a code of its own for it). ``private``: a hidden
    choice (a discarded contract, the cards thrown away): while the game runs, only the seat that
    sent it reads it in the log; every other reader gets it redacted (games/redaction.py)."""

    code: str = "invalid-command"
    private: bool = False


def object_schema(fields: Iterable[Field], *, closed: bool) -> JsonSchema:
    fields = tuple(fields)
    out: JsonSchema = {"type": "object", "properties": {f.name: f.schema() for f in fields}}
    required = [f.name for f in fields if not f.optional]
    if required:
        out["required"] = required
    if closed:
        out["additionalProperties"] = False
    return out


@dataclass(frozen=True)
class CommandSpec:
    """One command: ``{"cmd": name, **args}``."""

    name: str
    help: str
    args: tuple[Arg, ...] = ()

    _keys: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [a.name for a in self.args]
        if "cmd" in names or len(set(names)) != len(names):
            raise ValueError(f"command {self.name!r}: argument names must be unique and not 'cmd'")
        object.__setattr__(self, "_keys", frozenset(("cmd", *names)))

    def check(self, command: Mapping[str, Any]) -> None:
        """Raise :class:`RulesError` naming the argument unless ``command``'s arguments fit.
        (On every move and every replayed action: a few microseconds.)"""
        keys = self._keys
        for key in command:
            if key not in keys:
                extra = sorted(str(k) for k in command if k not in keys)
                takes = ", ".join(repr(a.name) for a in self.args) or "no arguments"
                raise RulesError("invalid-command", f"Command {self.name!r} takes {takes}, not {', '.join(map(repr, extra))}.")
        for arg in self.args:
            value = command.get(arg.name, _ABSENT)
            if value is _ABSENT:
                if arg.optional:
                    continue
                raise RulesError(arg.code, f"Command {self.name!r} needs {arg.name!r}.")
            wrong = arg.problem(value)
            if wrong is not None:
                raise RulesError(arg.code, f"Command {self.name!r}: {arg.name!r} {wrong}.")

    @property
    def private_args(self) -> tuple[str, ...]:
        """The arguments only the sending seat reads in the log while the game runs."""
        return tuple(a.name for a in self.args if a.private)

    def to_json(self) -> dict[str, Any]:
        """What ``GET /api/kinds`` says of this command."""
        return {
            "cmd": self.name,
            "help": self.help,
            "args": [
                {
                    "name": a.name,
                    "help": a.help,
                    "optional": a.optional,
                    "nullable": a.nullable,
                    "private": a.private,
                    "schema": a.type.schema(),
                }
                for a in self.args
            ],
        }

    def schema(self, extra: Iterable[Field] = ()) -> JsonSchema:
        """The OpenAPI schema of this command's body (with ``extra`` fields the endpoint
        takes beside the arguments, e.g. ``command_id``)."""
        cmd = Field("cmd", Enum((self.name,)), self.help)
        out = object_schema((cmd, *self.args, *extra), closed=True)
        out["description"] = self.help
        return out


def command_table(specs: Iterable[CommandSpec]) -> dict[str, CommandSpec]:
    table: dict[str, CommandSpec] = {}
    for spec in specs:
        if spec.name in table:
            raise ValueError(f"command {spec.name!r} declared twice")
        table[spec.name] = spec
    return table


def command_check(table: Mapping[str, CommandSpec], command: Any) -> CommandSpec:
    """The spec of ``command`` once its shape fits it; :class:`RulesError` otherwise
    (``invalid-command``; ``unknown-command`` for a ``cmd`` the table does not have)."""
    if type(command) is not dict:
        raise RulesError("invalid-command", "A command must be an object.")
    name = command.get("cmd")
    if type(name) is not str:
        raise RulesError("invalid-command", 'A command needs a "cmd" string.')
    spec = table.get(name)
    if spec is None:
        raise RulesError("unknown-command", f"There is no command {name!r}.")
    spec.check(command)
    return spec


# -- the platform's own commands (games/services.py, games/undo.py) ---------------------

GET_STATE = CommandSpec("get-state", "Your view of the game, as GET …/state answers it.")
START = CommandSpec("start", "Start the game (the host; as POST …/start).")
SEAT_RETURN = CommandSpec(
    "seat-return",
    "Take your seat back from the bot that played it while you were away (as POST …/seats/me/return); "
    "no events when it was not away.",
)
RESIGN = CommandSpec(
    "resign",
    "Resign from the game (as POST …/seats/me/resign): you finish last; with only one other seat left the game "
    "ends and it wins, else the title's bot plays your seat to the end (games/resign.py).",
)
PLATFORM = (GET_STATE, START, SEAT_RETURN, RESIGN)  # every kind takes these (games/services.py)
TAKE_BACK = CommandSpec(
    "take-back",
    "Take back your own last action, even after ending your turn, until the next player acts; refused "
    "(drew-hidden) when it drew something hidden, such as new offers (engines with takes_back; games/takeback.py).",
)
UNDO = CommandSpec(
    "undo",
    "Take back the last command of the current turn (its author or the host; never across the turn start).",
    (Arg("confirm", Bool(), "Undo even though that command revealed a random draw (the host).", optional=True),),
)
