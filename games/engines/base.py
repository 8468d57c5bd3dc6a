"""The contract between the platform and a rules engine.

An engine is a subclass of :class:`Engine`. It never touches the database or the
network. Its state is a plain JSON-serialisable ``dict`` (so it can be stored in
a JSON column and sent to clients) and holds the game's random number generator
(see :mod:`games.engines.rng`), so the same seed and the same command log always
give the same game.

Each engine declares its commands once (``commands``: :class:`~games.engines.specs.CommandSpec`
values, in the engine's ``commands.py``). :meth:`Engine.apply` checks a command's shape
against them and only then runs the rules, :meth:`Engine.apply_rules`; ``/api/kinds`` and
``/api/schema/`` describe the same specs.

Life of a game, as the platform drives it::

    options = engine.normalize_options(raw_options)          # RulesError if bad
    state = engine.setup(players=["Ann", "Bo"], options=options, seed=1234)
    events = engine.apply(state, seat=0, command={"cmd": "pass"})   # mutates state
    engine.view(state, seat=1)          # what seat 1 may see
    engine.view(state, seat=None)       # what a spectator may see
    engine.legal_commands(state, seat=0)
    engine.active_seats(state)          # who may act now
    engine.is_finished(state)

``apply`` mutates ``state`` in place and returns the events it produced. Its rules
(``apply_rules``) must check everything first and raise :class:`RulesError` *before*
changing anything, so a rejected command leaves the state exactly as it was.
"""

from __future__ import annotations

import functools
import random
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # pragma: no cover
    from .specs import CommandSpec, Field

State = dict[str, Any]
Command = dict[str, Any]
Event = dict[str, Any]


class RulesError(Exception):
    """A command the rules do not allow. ``code`` is a stable kebab-case slug."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RulesError({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class Option:
    """One game option a host may set when creating a game.

    ``type`` is one of ``"int"``, ``"bool"``, ``"choice"``. ``min``/``max`` bound what a new
    game may set: values at which bots' games still end (each engine's README says how they
    were found). ``stored_max``: the larger bound of an older release, which games created
    then may still hold; their setup (a replay) accepts it, a new game does not.
    """

    name: str
    type: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    stored_max: int | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("stored_max")
        data["choices"] = list(self.choices)
        # Display names, so pages show "End threshold" and "Owned cards", not the slugs.
        data["label"] = self.name.replace("_", " ").capitalize()
        data["choice_labels"] = [str(c).replace("-", " ").capitalize() for c in self.choices]
        return data

    def clean(self, value: Any, *, stored: bool = False) -> Any:
        if self.type == "bool":
            if not isinstance(value, bool):
                raise RulesError("invalid-option", f"Option {self.name!r} must be true or false.")
            return value
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError("invalid-option", f"Option {self.name!r} must be a whole number.")
            if self.min is not None and value < self.min:
                raise RulesError("invalid-option", f"Option {self.name!r} must be at least {self.min}.")
            top = self.stored_max if stored and self.stored_max is not None else self.max
            if top is not None and value > top:
                raise RulesError("invalid-option", f"Option {self.name!r} must be at most {top}.")
            return value
        if self.type == "choice":
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise RulesError("invalid-option", f"Option {self.name!r} must be one of {allowed}.")
            return value
        raise RulesError("invalid-option", f"Option {self.name!r} has an unknown type.")


@dataclass
class Engine:
    """Base class for a game title's rules. Subclasses set the class attributes
    and implement the methods marked *must*."""

    kind: ClassVar[str]  # URL-safe slug, e.g. "locomotive-werks"
    title: ClassVar[str]  # human name, e.g. "Locomotive Werks"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    bots: ClassVar[tuple[str, ...]] = ()  # names of bot levels, weakest first
    # The bot the lobby and the game master's admin pick unless told otherwise (one of
    # ``bots``); None: the kind's best, the last of ``bots``. Read it through bot_default().
    default_bot: ClassVar[str | None] = None
    # Every command the rules take, declared once (games/engines/specs.py): apply checks
    # shapes against them; /api/kinds and /api/schema/ describe them. An engine that
    # declares none gets no check (its apply_rules sees every command as sent).
    commands: ClassVar[tuple[CommandSpec, ...]] = ()
    # The top-level fields of view(state, seat) (for /api/schema/'s state of this kind).
    view_fields: ClassVar[tuple[Field, ...]] = ()
    # Hidden information in the log (docs/SECRETS.md), declared beside the commands: a command's
    # private arguments are its specs' ``Arg(private=True)``; these are the events' private fields,
    # by event type: only the event's ``seat`` (else the acting seat) reads them while the game runs.
    private_events: ClassVar[dict[str, tuple[str, ...]]] = {}

    extra: dict[str, Any] = field(default_factory=dict)

    # -- description -----------------------------------------------------
    def describe(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [o.to_json() for o in self.options],
            "bots": list(self.bots),
            "default_bot": self.bot_default(),
            "commands": [spec.to_json() for spec in self.command_specs()],
        }

    def bot_default(self) -> str | None:
        """The bot a seat handed to a bot gets when no one chose one: ``default_bot``, else the
        strongest of ``bots`` (the last); None when the kind has no bots."""
        if self.default_bot is not None:
            if self.default_bot not in self.bots:
                raise ValueError(f"{self.kind}: default_bot {self.default_bot!r} is not one of its bots {self.bots}")
            return self.default_bot
        return self.bots[-1] if self.bots else None

    def command_specs(self) -> tuple[CommandSpec, ...]:
        """Every command a seat may send to this kind: the engine's own, and the platform's
        ``undo`` when the engine has a ``turn_key`` and ``take-back`` when it ``takes_back``."""
        back = (_specs.TAKE_BACK,) if self.takes_back else ()
        if type(self).turn_key is Engine.turn_key:
            return (*self.commands, *back)
        return (*self.commands, _specs.UNDO, *back)

    @functools.cached_property
    def command_table(self) -> dict[str, CommandSpec]:
        """The engine's commands by name (checked once: no name twice)."""
        return _specs.command_table(self.commands)

    def normalize_options(self, options: dict[str, Any] | None, *, stored: bool = False) -> dict[str, Any]:
        """Fill defaults and validate; unknown names are refused. ``stored``: options a game
        already holds (setup, replays), which may use an option's older ``stored_max``."""
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise RulesError("invalid-option", f"Unknown option(s): {', '.join(unknown)}.")
        return {name: opt.clean(options.get(name, opt.default), stored=stored) for name, opt in known.items()}

    def check_players_and_seed(self, players: Any, seed: Any) -> None:
        """What a setup refuses before anything else: a player count outside the kind's, a name that is not
        text, a seed that is not a whole number."""
        require(
            isinstance(players, list) and self.min_players <= len(players) <= self.max_players,
            "invalid-players",
            f"{self.title} is for {self.min_players} to {self.max_players} players.",
        )
        require(all(isinstance(p, str) for p in players), "invalid-players", "Player names must be strings.")
        require(type(seed) is int, "invalid-seed", "The seed must be a whole number.")

    # -- the rules (must) --------------------------------------------------
    def setup(self, *, players: list[str], options: dict[str, Any], seed: int) -> State:
        """Return the initial state for ``len(players)`` seats (seat i is players[i])."""
        raise NotImplementedError

    def apply(self, state: State, *, seat: int | None, command: Command) -> list[Event]:
        """Apply ``command`` (a dict with a kebab-case ``"cmd"``) for ``seat``.

        Mutates ``state``; returns events describing what happened (including any
        automatic steps that followed). Raises RulesError before mutating: first
        ``unknown-command`` / ``invalid-command`` when the command does not fit the
        engine's ``commands``, then whatever the rules refuse.
        """
        if self.commands:
            _specs.command_check(self.command_table, command)
        return self.apply_rules(state, seat=seat, command=command)

    def apply_rules(self, state: State, *, seat: int | None, command: Command) -> list[Event]:
        """The rules of ``apply``, for a command whose shape fits ``commands`` (must)."""
        raise NotImplementedError

    def view(self, state: State, *, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see. Never another seat's secrets."""
        raise NotImplementedError

    def legal_commands(self, state: State, *, seat: int) -> list[Command]:
        """Every command ``seat`` may send now (empty when it is not their move)."""
        raise NotImplementedError

    def active_seats(self, state: State) -> list[int]:
        """Seats that may act now (empty when the game is over)."""
        raise NotImplementedError

    def is_finished(self, state: State) -> bool:
        raise NotImplementedError

    # -- hidden information ------------------------------------------------
    def redact_action(self, command: Command, events: list[Event], *, actor: int | None, viewer: int | None) -> tuple[Command, list[Event]]:
        """A logged action as ``viewer`` (None: a spectator) may read it while the game runs: the
        command's private arguments (its spec's ``Arg(private=True)``) and the events' private fields
        (``private_events``) of another seat become null, named in ``"hidden"``. Returns the inputs
        themselves when nothing is hidden from this viewer (no copy)."""
        if viewer is None or viewer != actor:
            spec = self.command_table.get(command.get("cmd")) if self.commands else None
            names = [n for n in (spec.private_args if spec else ()) if n in command]
            if names:
                command = {**command, **dict.fromkeys(names), "hidden": names}
        if self.private_events:
            out = None
            for i, event in enumerate(events):
                fields = self.private_events.get(event.get("type")) if isinstance(event, dict) else None
                if not fields:
                    continue
                owner = event.get("seat", actor)
                names = [n for n in fields if n in event]
                if names and (viewer is None or viewer != owner):
                    out = list(events) if out is None else out
                    out[i] = {**event, **dict.fromkeys(names), "hidden": names}
            if out is not None:
                events = out
        return command, events

    def secrets(self, state: State) -> dict[int | None, list[dict[str, Any]]]:
        """What each seat holds hidden now (None: the decks, hidden from everyone), as probes: each a
        small JSON pattern that matches a dict of any document holding it (every key equal, or the value
        in a list there; the key ``"*"`` matches any string equal to it). The leak test
        (tests/e2e/test_leaks.py) looks for every other seat's probes in everything a seat can read.
        Default: nothing is hidden."""
        return {}

    # -- the result (for ratings) ------------------------------------------
    def standings(self, state: State) -> list[int]:
        """Each seat's place in a finished game, by seat: 1 = first; seats that tied share a
        place and the next place skips (``[1, 1, 3]``). Each title derives it from the result its
        rules computed (winners, scores and the title's own tie-breaks: its README, "Standings").
        An engine without it is never rated."""
        raise NotImplementedError

    def result(self, state: State) -> dict[str, Any]:
        """How a finished game ended, for its players' ending screen (``state_payload`` adds it
        once the game is over; nothing in it is hidden then): ``how``, one sentence saying how the
        game was won (or ended), and ``ranking``, every seat in place order, each
        ``{"seat", "place", "score", "parts"}``: ``score`` the number the rules ranked by (None:
        they rank by something else, named in ``how``), ``parts`` the score by its parts
        (``[{"label", "value"}]``, in the order a score sheet lists them). ``columns`` names the
        parts' labels once, in order, so a table has one column each. Default: the places of
        :meth:`standings` alone. Each title says more (its README, "The ending")."""
        places_by_seat = self.standings(state)
        ranking = sorted(
            ({"seat": seat, "place": place, "score": None, "parts": []} for seat, place in enumerate(places_by_seat)),
            key=lambda row: (row["place"], row["seat"]),
        )
        return {"how": "", "columns": [], "ranking": ranking}

    # -- undo (optional) ---------------------------------------------------
    # True: any seat may send ``take-back`` for its own last action that drew nothing hidden (no
    # event marked ``"random": True``) until another seat acts (games/takeback.py).
    takes_back: ClassVar[bool] = False

    def turn_key(self, state: State) -> Any:
        """A JSON value that changes whenever the turn passes on. Engines that return
        something other than None get the platform's ``undo`` command: it takes back
        the last command of the current turn (never crossing into the previous turn)."""
        return None

    # -- a protocol's own state document (optional) -------------------------
    def protocol_state(self, state: State, *, seat: int | None) -> dict[str, Any] | None:
        """The whole public state as the title's own protocol lays it out, plus ``seat``'s private
        part (``None``: a spectator), for ``get-state`` through ``POST /api``. Default None: the
        title has no protocol of its own and ``get-state`` answers with :meth:`view`."""
        return None

    # -- bots (optional) ---------------------------------------------------
    def bot_command(self, state: State, *, seat: int, bot: str, rng: random.Random) -> Command:
        """The command bot level ``bot`` plays for ``seat``. Default: a random legal one."""
        legal = self.legal_commands(state, seat=seat)
        if not legal:
            raise RulesError("not-your-turn", "This bot has nothing to do.")
        return rng.choice(legal)


def places(keys: list[Any]) -> list[int]:
    """Standard competition places from each seat's sort key, larger is better: 1 + how many
    seats have a strictly larger key, so equal keys share a place (``[5, 9, 5] → [2, 1, 2]``)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def places_from_winners(winners: list[int], seats: int) -> list[int]:
    """Places when the rules name only the winners: they are 1st, everyone else 2nd (tied);
    no winner at all: everyone tied 1st."""
    won = set(winners)
    return [1 if seat in won or not won else 2 for seat in range(seats)]


def require(condition: bool, code: str, message: str) -> None:
    """Raise RulesError(code, message) unless ``condition`` holds."""
    if not condition:
        raise RulesError(code, message)


# At the end: specs.py builds on RulesError above (CommandSpec.check raises it).
from . import specs as _specs  # noqa: E402
