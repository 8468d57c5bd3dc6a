"""Request and response shapes. Validation of *shape* only: the rules live in engines."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from games.clocks import BANK_CHOICES, TURN_SECONDS_CHOICES
from games.names import NAME_MAX_LENGTH, name_clean
from games.services import PALETTE


class StrictCharField(serializers.CharField):
    """Only a JSON string (DRF's CharField turns numbers into text)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """Only a JSON true or false (DRF's BooleanField also takes "yes", "0", 1 and the like)."""

    def to_internal_value(self, data):
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class NameField(StrictCharField):
    """A name a person typed: NFC, stripped, nothing invisible (``games.names.name_clean``);
    refused naming the field otherwise."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", NAME_MAX_LENGTH)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        try:
            return name_clean(super().to_internal_value(data), max_length=self.max_length)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None


class GameCreateSerializer(serializers.Serializer):
    kind = serializers.CharField(max_length=40)
    options = serializers.DictField(required=False, default=dict)
    name = NameField(required=False, help_text="Also take seat 0 as this player.")
    color = serializers.ChoiceField(choices=PALETTE, required=False)
    turn_seconds = serializers.ChoiceField(
        choices=TURN_SECONDS_CHOICES, required=False, allow_null=True, default=None,
        help_text="The clock: seconds per turn (null or absent: no clock). When a seat's time runs out a bot plays that "
        "turn only; after a few such turns in a row it keeps the seat until its player takes it back "
        "(POST /api/games/{code}/seats/me/return).",
    )

    listed = StrictBooleanField(
        required=False, default=False,
        help_text="An open table: listed on the home page and in GET /api/games for anyone to join. Absent or false: "
        "unlisted, joined (and watched) by its code, link or QR code only. The host may change it later "
        "(POST /api/games/{code}/listing).",
    )

    bank_seconds = serializers.ChoiceField(
        choices=[bank for bank, _, _ in BANK_CHOICES], required=False, allow_null=True, default=None,
        help_text="Or a time bank: each seat's seconds for the whole game, with increment_seconds (the pairs on offer: "
        + "; ".join(f"{bank} + {increment} ({words})" for bank, increment, words in BANK_CHOICES)
        + "). When a seat's bank runs out a bot plays that turn only; after a few such turns in a row it keeps the seat "
        "until its player takes it back.",
    )
    increment_seconds = serializers.ChoiceField(
        choices=sorted({increment for _, increment, _ in BANK_CHOICES}), required=False, allow_null=True, default=None,
        help_text="Seconds added to a seat's bank after each of its turns (with bank_seconds).",
    )

    def validate_turn_seconds(self, value):
        return None if value is None else int(value)

    def validate_bank_seconds(self, value):
        return None if value is None else int(value)

    def validate_increment_seconds(self, value):
        return None if value is None else int(value)


class ListingSerializer(serializers.Serializer):
    listed = StrictBooleanField(help_text="true: an open table, listed for anyone; false: unlisted (code, link or QR only).")


class SeatJoinSerializer(serializers.Serializer):
    name = NameField(required=False)
    color = serializers.ChoiceField(choices=PALETTE, required=False)
    bot = serializers.CharField(max_length=20, required=False, help_text="Host only: seat a bot of this level.")

    def validate(self, attrs):
        if not attrs.get("name") and not attrs.get("bot"):
            raise serializers.ValidationError({"name": "This field is required."})
        return attrs


CMD_PATTERN = r"^[a-z][a-z0-9-]{0,47}$"
COMMAND_ID_MAX = 64


class CommandSerializer(serializers.Serializer):
    """``{"cmd": "<name>", ...arguments}``; arguments go to the game's rules."""

    cmd = serializers.RegexField(CMD_PATTERN, help_text="Kebab-case command name.")
    command_id = StrictCharField(
        max_length=COMMAND_ID_MAX, required=False, help_text="A string; retries with the same id are idempotent."
    )
    expected_version = serializers.IntegerField(min_value=0, required=False)


_CMD = re.compile(CMD_PATTERN)
_ABSENT = object()


def command_validate(body: dict[str, Any]) -> dict[str, Any]:
    """What ``CommandSerializer(data=body).is_valid()`` accepts, validated; raises DRF's
    ``ValidationError`` (its ``detail`` keyed by field) otherwise.

    A body already in canonical form (what clients send: ``cmd`` a matching string, an ASCII
    ``command_id`` with nothing to trim, a non-negative integer ``expected_version``) is
    accepted as is; anything else goes through the serializer, which then decides (a test
    proves both decide alike). Between paced moves DRF's validation took 0.12 ms of the
    move's time (its code is cold by then), this check a tenth of it. The serializer keeps
    nothing between calls (only ``is_valid`` stores its outcome), so one instance serves
    every call: DRF deep-copies the declared fields for each new instance."""
    if type(body) is dict:
        cmd = body.get("cmd")
        command_id = body.get("command_id", _ABSENT)
        expected = body.get("expected_version", _ABSENT)
        if (
            type(cmd) is str and _CMD.fullmatch(cmd)
            and (command_id is _ABSENT or (
                type(command_id) is str and command_id.isascii() and 0 < len(command_id) <= COMMAND_ID_MAX
                and "\x00" not in command_id and command_id.strip() == command_id
            ))
            and (expected is _ABSENT or (type(expected) is int and 0 <= expected < 10**18))
        ):
            data = {"cmd": cmd}
            if command_id is not _ABSENT:
                data["command_id"] = command_id
            if expected is not _ABSENT:
                data["expected_version"] = expected
            return data
    return _COMMAND.run_validation(body)


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    color = serializers.CharField()
    is_host = serializers.BooleanField()
    is_bot = serializers.BooleanField()
    bot = serializers.CharField(allow_null=True)
    away = serializers.BooleanField(help_text="A bot plays for the seat's absent player, who may take it back.")
    resigned = serializers.BooleanField(help_text="Its player resigned (POST …/seats/me/resign): they rank last; a bot plays the seat on.")
    turn_deadline = serializers.DateTimeField(allow_null=True, help_text="By when the seat on turn must move (a clock); null otherwise.")
    bank_left = serializers.IntegerField(
        allow_null=True, help_text="A time bank: the seconds this seat has left between its turns (on turn, turn_deadline "
        "counts); null: no bank, or its whole bank.")
    turn_only = serializers.BooleanField(
        help_text="Its player's time ran out: a bot plays this turn only, and the seat is the player's again when it ends.")
    away_until = serializers.DateTimeField(
        allow_null=True, help_text="Its player is away (a slow game's away period, POST /api/me/away) until then: their clock "
        "waits; null otherwise.")


class GameSummarySerializer(serializers.Serializer):
    code = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=["lobby", "active", "paused", "finished", "abandoned"])
    version = serializers.IntegerField()
    revision = serializers.IntegerField(
        help_text="Grows with every change of seats or status: of two summaries, keep the one with the higher revision."
    )
    options = serializers.DictField()
    seats = SeatSerializer(many=True)
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    turn_seconds = serializers.IntegerField(allow_null=True, help_text="The clock: seconds per turn (null: no clock).")
    bank_seconds = serializers.IntegerField(allow_null=True, help_text="Or a time bank: each seat's seconds for the game (null: none).")
    increment_seconds = serializers.IntegerField(allow_null=True, help_text="What each turn adds to a seat's bank, in seconds.")
    listed = serializers.BooleanField(
        help_text="An open table, listed on the home page and in GET /api/games; false: unlisted, reached by its code only."
    )
    next_game = serializers.CharField(
        allow_null=True,
        help_text="The table's rematch (POST /api/games/{code}/rematch): the next game's code; null: none yet.",
    )
    unrated_reason = serializers.CharField(
        allow_null=True,
        help_text="Why this game rates nobody, e.g. \"Ben's seat was handed to another device\" "
        "(a rejoin code used by anyone but the seat's own account); null: no such reason.",
    )
    seed = serializers.IntegerField(
        allow_null=True,
        help_text="The seed of the game's random draws: null until the game is finished, then published so anyone can "
        "replay the log and verify every draw.",
    )


class GameCreatedSerializer(GameSummarySerializer):
    host_token = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    token = serializers.CharField(allow_null=True, help_text="The host's seat token (equal to host_token).")


class SeatJoinedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField(allow_null=True, help_text="Keep it: it is shown only once.")
    game = GameSummarySerializer()


class RejoinCodeSerializer(serializers.Serializer):
    """A one-time code handing a seat to a new device (the host's answer; shown once)."""

    game = serializers.CharField(help_text="The game's join code.")
    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="The seat's player.")
    code = serializers.CharField(help_text="The rejoin code, e.g. ABCDE-FGHJK (dashes and case do not matter).")
    url = serializers.URLField(help_text="The rejoin page with the code, at the address phones reach: what the QR code holds.")
    qr_svg = serializers.CharField(help_text="The QR code of `url`, an inline SVG element.")
    expires_at = serializers.DateTimeField()
    expires_in = serializers.IntegerField(help_text="Seconds until it expires.")


class RejoinSerializer(serializers.Serializer):
    code = StrictCharField(max_length=32, help_text="The rejoin code the host gave (dashes, spaces and case do not matter).")

    def validate_code(self, value: str) -> str:
        from games.tokens import CODE_ALPHABET, REJOIN_CODE_LENGTH, normalize_rejoin_code

        code = normalize_rejoin_code(value)
        if len(code) != REJOIN_CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            raise serializers.ValidationError(f"a rejoin code is {REJOIN_CODE_LENGTH} letters, like ABCDE-FGHJK.")
        return code


class SeatRejoinedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="This device's new seat token: keep it, it is shown only once. The old one no longer works.")
    host = serializers.BooleanField(help_text="The seat was the host's: the token is the new host token too.")
    game = GameSummarySerializer()


class StateSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    state = serializers.JSONField(allow_null=True)
    legal_commands = serializers.ListField(child=serializers.DictField())
    take_back = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text=(
            "Only for a seat of a title that takes back (games/takeback.py): `{sequence, cmd}` of the seat's own last "
            "action that `take-back` would take back now, else null."
        ),
    )
    result = serializers.JSONField(
        required=False,
        help_text=(
            "Only once the rules have finished the game: how it ended. `how` (one sentence), `columns` (the score's "
            "parts' labels, in order) and `ranking`: every seat in place order, `{seat, place, score, parts: "
            "[{label, value}]}` (`score` null where the title ranks by something other than a number)."
        ),
    )


class ProtocolSerializer(CommandSerializer):
    """The server notes' body: a command with the game named in it (``POST /api``)."""

    game = serializers.CharField(help_text="The game's join code.")
    player_id = serializers.IntegerField(min_value=0, required=False, help_text="Your seat; must be the token's.")
    geography = serializers.BooleanField(
        required=False,
        help_text="get-state only: false leaves the protocol document's static `geography` out (default true).",
    )


class ProtocolStateResultSerializer(serializers.Serializer):
    """The answer to ``{"cmd": "get-state"}`` through ``POST /api`` for a kind with a protocol document."""

    response = serializers.CharField(help_text="`get-state-response`.")
    status = serializers.CharField(help_text="`ok`.")
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="Your seat (null: a spectator).")
    state = serializers.JSONField(
        allow_null=True,
        help_text=(
            "The kind's protocol document (null before the game starts); for a kind without one, your view as "
            "GET …/state gives it. Runerail's (`format` `runerail/notes-state@1`, the server notes' \"Game State\" "
            "list): `phase` (`start`, `main`, `finished`), `start_step`, `build_round`, `special_phase` (the "
            "decision waited for, or null), `turn`, `round`, `turn_order`, `current_player` (`player_id`, "
            "`turn_phase`, `money_spent`, `distance_moved`, …), `commands` (every action of the log: `sequence`, "
            "`player_id`, `command`), `winner`, `end_reason`, `effects` (`rainbow_bridge`, `magical_link`, "
            "`no_build`, `halted_trains`, `half_rate_areas`, `no_loading`, `no_upgrading`, `no_ship_changes`, "
            "`no_foreman_change`, each with `ends_turn`; `cards`), `decks` (`resources`, `foremen`, `ships`, "
            "`demands`: `deck_size` and `discard_pile`; `trains`), `players`, `geography` (unless left out), "
            "`track` (links per player) and `you` (your private part; null for a spectator). "
            "games/engines/runerail/protocol.py documents every field."
        ),
    )
    legal_commands = serializers.ListField(child=serializers.DictField(), help_text="Every command you may send now.")


class CommandResultSerializer(serializers.Serializer):
    response = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.DictField())


class SeatOrderSerializer(serializers.Serializer):
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=99), max_length=100,
        help_text="Every seat's current index once, in the new order: the seat at order[i] moves to index i.",
    )


class SeatsOrderedSerializer(serializers.Serializer):
    """The waiting room's seats after the host reordered them."""

    game = GameSummarySerializer()


class ListedSerializer(serializers.Serializer):
    """The game after the host opened its table or made it unlisted (its ``listed``)."""

    game = GameSummarySerializer()


class SeatRemovedSerializer(serializers.Serializer):
    """The waiting room after the host removed a seat: who was removed, and the seats now."""

    seat = serializers.IntegerField(help_text="The removed seat's index (the seats after it moved up one).")
    name = serializers.CharField(help_text="The removed seat's player.")
    game = GameSummarySerializer()


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="The writer's seat; null: the host without a seat, or a spectator.")
    name = serializers.CharField()
    text = serializers.CharField()
    audience = serializers.ChoiceField(choices=["table", "watchers"], help_text="table: the players' chat; watchers: the spectators'.")
    user = serializers.CharField(allow_null=True, help_text="The writer's account name (null: a guest or the host).")
    created_at = serializers.DateTimeField()


class ChatSerializer(serializers.Serializer):
    messages = ChatMessageSerializer(many=True)
    quick_phrases = serializers.ListField(child=serializers.CharField(), help_text="One-tap messages for phones.")
    writes = serializers.BooleanField(help_text="Whether you may write (a seat, the host, or a signed-in spectator).")
    audience = serializers.CharField(allow_null=True, help_text="Where what you write goes: table or watchers.")
    muted = serializers.ListField(child=serializers.CharField(), help_text="The players you muted (signed in).")


class ChatPostSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=300, trim_whitespace=False, allow_blank=True)


class RematchSerializer(serializers.Serializer):
    """The table's next game and the asker's token there (POST /api/games/{code}/rematch)."""

    code = serializers.CharField(help_text="The next game's join code.")
    token = serializers.CharField(help_text="Your token in the next game: your seat's, or the host's. The same on every ask.")
    seat = serializers.IntegerField(allow_null=True, help_text="Your seat there (the turn order turned by one); null: the host without a seat.")
    host = serializers.BooleanField(help_text="Whether the token is the next game's host's.")
    created = serializers.BooleanField(help_text="Whether this ask made the next game (false: another seat asked first).")


class SeatChangedSerializer(serializers.Serializer):
    """A seat handed to a bot or taken back: the logged action's result (null: nothing changed) and the game."""

    result = CommandResultSerializer(allow_null=True)
    game = GameSummarySerializer()


class ActionSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    command = serializers.DictField(
        help_text="The command as you may read it: while the game runs, another seat's private arguments are null and "
        "named in the command's \"hidden\" list (GET /api/kinds marks them \"private\")."
    )
    events = serializers.ListField(child=serializers.DictField())
    created_at = serializers.DateTimeField()


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    status = serializers.CharField(default="error")
    error = ErrorBodySerializer()
    version = serializers.IntegerField(required=False, help_text="The game's current version (409, 400).")
    first = serializers.DictField(
        required=False, help_text="409 command-id-reused: the action that command_id made (`sequence`, `command`)."
    )


class OptionInfoSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField(help_text="`int`, `bool` or `choice`.")
    default = serializers.JSONField(help_text="The value a new game gets unless the host sets it.")
    help = serializers.CharField(allow_blank=True)
    choices = serializers.ListField(child=serializers.JSONField(), help_text="The values of a `choice` option.")
    min = serializers.IntegerField(allow_null=True)
    max = serializers.IntegerField(allow_null=True)
    label = serializers.CharField(help_text="The option's display name (\"End threshold\").")
    choice_labels = serializers.ListField(
        child=serializers.CharField(), help_text="Display names of `choices`, in their order (\"Owned cards\")."
    )


class ArgInfoSerializer(serializers.Serializer):
    name = serializers.CharField()
    help = serializers.CharField(allow_blank=True)
    optional = serializers.BooleanField()
    nullable = serializers.BooleanField()
    schema = serializers.DictField(help_text="The value's JSON Schema (type, bounds, enum, pattern, items).")


class CommandInfoSerializer(serializers.Serializer):
    cmd = serializers.CharField()
    help = serializers.CharField()
    args = ArgInfoSerializer(many=True)


class KindSerializer(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = OptionInfoSerializer(many=True)
    bots = serializers.ListField(child=serializers.CharField())
    commands = CommandInfoSerializer(many=True, help_text="Every command a seat may send to a game of this kind.")


class ReplayStepSerializer(serializers.Serializer):
    step = serializers.IntegerField()
    last = serializers.IntegerField(help_text="The game's current version (the last step).")
    status = serializers.CharField()
    action = ActionSerializer()
    state = serializers.JSONField(help_text="The spectator view after this step.")
    result = serializers.JSONField(required=False, help_text="Only at the step that ended the game: how it ended, as in the state's `result`.")


_COMMAND = CommandSerializer()
