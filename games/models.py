"""A game, its seats and its append-only action log.

The game row holds the current state and a ``version``; every accepted command
appends one :class:`Action` whose ``sequence`` equals the game's version after it.
Replaying the engine's ``setup`` and then every action reproduces ``state``.
"""

from __future__ import annotations

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

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.code} ({self.status})"


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
