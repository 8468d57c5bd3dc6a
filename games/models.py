"""A game, its seats and its append-only action log.

The game row holds the current state and a ``version``; every accepted command
appends one :class:`Action` whose ``sequence`` equals the game's version after it.
Replaying the engine's ``setup`` and then every action reproduces ``state``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Lobby"
        ACTIVE = "active", "Active"
        PAUSED = "paused", "Paused"  # by a game master: commands wait (409 game-paused) until resumed
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    kind = models.CharField(max_length=40, db_index=True)
    code = models.CharField(max_length=8, unique=True, help_text="Short join code shown to players.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY, db_index=True)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(help_text="Seeds the engine's RNG; with the log it reproduces the game.")
    version = models.PositiveIntegerField(default=0, help_text="Sequence of the last action applied.")
    state = models.JSONField(null=True, blank=True)
    host_token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The clock (games/clocks.py): seconds each turn may take; None: no clock. When a seat's
    # turn_deadline passes, the clock runner (manage.py run_clocks) hands the seat to a bot.
    turn_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="Time per turn, in seconds; empty: no clock.")
    # Or a time bank (games/clocks.py): each seat starts with bank_seconds, spends it on its turns and
    # gains increment_seconds after each turn. Never both kinds of clock in one game.
    bank_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="A time bank: each seat's time for the whole game, in seconds; empty: none.")
    increment_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="Added to a seat's time bank after each of its turns, in seconds.")
    # Turns are tracked (Seat.turn_started_at: clocks and turn notices) only in games that need it:
    # a clock, or a seat held by a signed-in player. Guest games pay nothing for them.
    watched = models.BooleanField(default=False, editable=False)
    # Counts the game's summary broadcasts (games/broadcast.py): each one bumps it, then reads the
    # seats and status. Pages keep the summary with the highest revision, so one read before a
    # concurrent change (two phones joining at once) that arrives last does not undo it.
    revision = models.PositiveIntegerField(default=0, editable=False)
    # Why this game rates nobody whatever its end (players/ratings.py), said at its end: a seat
    # handed by a rejoin code to anyone but its own account (games/rejoin.py). Empty: no such reason.
    unrated_reason = models.CharField(max_length=200, blank=True, default="", editable=False)
    # An open table (games/listing.py): listed in the lobby, on the home page and in GET /api/games
    # for anyone to join. False (a new game's default): unlisted, joined by its code, link or QR only
    # (and watched by them too). The host opens it and makes it unlisted again.
    listed = models.BooleanField(
        default=False, db_index=True,
        help_text="An open table: listed on the home page and in GET /api/games. Unlisted: joined by its code, link or QR only.",
    )
    # Play again (games/rematch.py): the game this one's table went on to, with the same title, options and
    # seats; set once, by the first seat that asked.
    next_game = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous_games", editable=False,
        help_text="The rematch: the next game of this table (same title, options and seats).",
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.code} ({self.status})"

    @property
    def clocked(self) -> bool:
        """A clock of either kind: a time per turn or a time bank."""
        return bool(self.turn_seconds or self.bank_seconds)

    # A slow clock: at least this much time per turn, or a bank at least this big.
    SLOW_TURN_SECONDS = 43200
    SLOW_BANK_SECONDS = 86400

    @property
    def slow(self) -> bool:
        """A clock measured in days more than minutes (12 hours a turn or more; a bank of a day or more):
        its signed-in players may declare an away period (games/away.py) that pauses their clock."""
        return (self.turn_seconds or 0) >= self.SLOW_TURN_SECONDS or (self.bank_seconds or 0) >= self.SLOW_BANK_SECONDS


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    color = models.CharField(max_length=20, blank=True)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    is_host = models.BooleanField(default=False)
    is_bot = models.BooleanField(default=False)
    bot = models.CharField(max_length=20, blank=True, help_text="Bot level, for bot seats.")
    joined_at = models.DateTimeField(auto_now_add=True)
    # The signed-in player who holds this seat (None: a guest). Deleting the account keeps the
    # seat, as a guest's: the game's log stays whole.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats")
    # A bot plays for an absent player (the clock ran out, or the host handed the seat over):
    # is_bot is set too, and the player may take the seat back.
    away = models.BooleanField(default=False)
    # In watched games: when this seat's current turn began (None: not on turn), and by when the
    # clock wants its move (clocked games only).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # A time bank's clock (Game.bank_seconds): the seconds this seat has left between its turns (its
    # turn's deadline is the turn's start plus this); None: the game's bank, untouched.
    bank_left = models.FloatField(null=True, blank=True)
    # Turns in a row whose time ran out (games/clocks.py): the title's bot plays such a turn and
    # gives the seat back when it ends (turn_only); at JUNCTION_CLOCK_EXPIRIES_KEEP in a row the bot
    # keeps the seat until its player takes it back. A turn the player plays sets it back to 0.
    expiries = models.PositiveSmallIntegerField(default=0, editable=False)
    turn_only = models.BooleanField(default=False, editable=False)
    # When a socket of this seat was last known open (games/presence.py): written when one opens
    # and closes and, while one stays open, every half minute or so; None: never. A seat whose
    # phone has been away JUNCTION_REJOIN_AWAY seconds (from this, else joined_at) may be handed
    # to a new device by the host (games/rejoin.py).
    last_seen = models.DateTimeField(null=True, blank=True, editable=False)
    # When its player resigned (games/resign.py): they finish last (after anyone who resigned later), and
    # the title's bot plays the seat to the end unless the game ended with the resignation. None: playing.
    resigned_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game.code} seat {self.index}: {self.name}"


class Action(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    sequence = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Acting seat; empty for the host.")
    command = models.JSONField()
    events = models.JSONField(default=list, blank=True)
    # NULL, not "": commands without an id must not collide in the unique constraint.
    command_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="action_unique_sequence_per_game"),
            models.UniqueConstraint(
                fields=["game", "command_id"],
                condition=Q(command_id__isnull=False),
                name="action_unique_command_id_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.code} #{self.sequence} {self.command.get('cmd', '?')}"


class RejoinCode(models.Model):
    """A one-time code that hands seat ``seat`` of ``game`` to a new device (a phone that died
    or lost its storage): issued by the host or a game master, short-lived, used once. Only its
    hash is stored. Once used it keeps the hash of the token it revoked, so a request with that
    token is told the seat moved (401 ``seat-moved``) rather than that the token is unknown."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rejoin_codes")
    seat = models.PositiveSmallIntegerField()
    code_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.CharField(max_length=150, help_text="Who issued it: 'host' or the game master's user name.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    # NULL until used (many unused codes must not collide in the index's lookups).
    revoked_token_hash = models.CharField(max_length=64, null=True, blank=True, db_index=True, editable=False)  # noqa: DJ001

    class Meta:
        ordering = ["game", "-created_at"]

    def __str__(self) -> str:
        state = "used" if self.used_at else "open"
        return f"{self.game.code} seat {self.seat} rejoin code ({state})"


class SeatToken(models.Model):
    """Another device's token for a seat: a signed-in player opened their seat from My games on a
    device that did not hold it. Only the hash is stored, like the seat's own token. Handing the
    seat to someone else (a rejoin code, the host) deletes these."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="device_tokens")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="seat_tokens")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.seat} device token"


class SeatSocket(models.Model):
    """An open WebSocket of a seat held by a signed-in player (turn notices go out only when the
    player has none). Written on connect, refreshed now and then by the heartbeat, deleted on
    disconnect; a row not seen for a while is a socket of a process that died."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sockets")
    seat = models.PositiveSmallIntegerField()
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "seat"], name="seatsocket_game_seat")]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat} socket"


class SeatRemoval(models.Model):
    """A token whose seat the host removed from the waiting room (games/seating.py seat_remove):
    only its hash is kept, so a request or socket that still presents it is told 401
    ``seat-removed`` in words rather than that the token is unknown. The seat's own token and any
    device tokens (``SeatToken``) of a signed-in player each get a row."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_removals")
    token_hash = models.CharField(max_length=64, db_index=True, editable=False)
    name = models.CharField(max_length=40, help_text="The removed seat's player, as the waiting room showed them.")
    removed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-removed_at"]

    def __str__(self) -> str:
        return f"{self.game.code}: {self.name} removed"


class ChatMessage(models.Model):
    """A message in a game's chat (games/chat.py): stored with the game, never in the rules' log. The
    players' chat (``table``) is read by everyone at the table and by spectators; the spectators' own
    (``watchers``) is kept from the players until the game is over. A game master may hide one."""

    class Audience(models.TextChoices):
        TABLE = "table", "The table (players)"
        WATCHERS = "watchers", "Spectators"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The writer's seat; empty: the host without a seat, or a spectator.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="chat_messages")
    name = models.CharField(max_length=150, help_text="The writer's name as it was shown.")
    audience = models.CharField(max_length=10, choices=Audience.choices, default=Audience.TABLE)
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True, editable=False)
    hidden_by = models.CharField(max_length=150, blank=True, default="", editable=False)

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "id"], name="chatmessage_game_id")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.name}: {self.text[:40]}"


class AwayPeriod(models.Model):
    """A signed-in player's declared absence (games/away.py): while it lasts, the clocks of their
    seats in slow games (Game.slow) are paused. A few days at a time, a limited number of days a month."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="away_periods")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts_at:%Y-%m-%d %H:%M} to {self.ends_at:%Y-%m-%d %H:%M}"
