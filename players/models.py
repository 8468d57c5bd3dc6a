"""Players who come back: a signed-in player's settings, their devices for turn notices, the
notices sent, and their ratings. The account itself is Django's auth user (django-allauth signs
people up and in); the seats they hold are ``games.Seat.user``."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    class Notices(models.TextChoices):
        PUSH_OR_EMAIL = "push-or-email", "A notice on my devices, else an e-mail"
        PUSH = "push", "Only a notice on my devices"
        EMAIL = "email", "Only an e-mail"
        OFF = "off", "No turn notices"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    turn_notices = models.CharField(max_length=20, choices=Notices.choices, default=Notices.PUSH_OR_EMAIL)

    def __str__(self) -> str:
        return f"{self.user} profile"


class PushSubscription(models.Model):
    """A device that allowed Web Push notices (the browser's PushSubscription)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} push device {self.pk}"


class TurnNotice(models.Model):
    """One notice per turn: the unique (game, seat, turn_started_at) is what makes it at most one,
    whichever process or thread saw the turn begin."""

    class Channel(models.TextChoices):
        PUSH = "push", "Web Push"
        EMAIL = "email", "E-mail"
        NONE = "none", "None (a socket was open, or notices are off)"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="turn_notices")
    seat = models.PositiveSmallIntegerField()
    turn_started_at = models.DateTimeField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="turn_notices")
    channel = models.CharField(max_length=10, choices=Channel.choices)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "turn_started_at"], name="turnnotice_one_per_turn"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat} turn notice ({self.channel})"


class Rating(models.Model):
    """A player's OpenSkill rating in one kind of game (players/ratings.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "-mu"]
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_one_per_user_and_kind")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.mu:.1f}±{self.sigma:.1f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the history on the profile, and what the
    recompute command rebuilds."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(max_length=40)
    rank = models.PositiveSmallIntegerField(help_text="1 = first; equal ranks are a tie.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="ratingchange_one_per_game_and_user")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.user}: {self.mu_before:.1f} → {self.mu_after:.1f}"


class GameRecord(models.Model):
    """One finished game in a signed-in player's record (players/record.py): the place the rules gave
    the seat they held at the end. Every game the rules finished counts, rated or not (bots and guests
    at the table too); a game the game master ended does not. Written when the rules finish the game;
    ``manage.py recompute_records`` rebuilds them all."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_records")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="records")
    kind = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(help_text="1 = first; equal places are a tie.")
    players = models.PositiveSmallIntegerField(help_text="Seats at the table, bots included.")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-finished_at", "-game_id"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="gamerecord_one_per_game_and_seat")]
        indexes = [models.Index(fields=["user", "kind"], name="gamerecord_user_kind")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.game_id}: place {self.place} of {self.players}"


class ChatMute(models.Model):
    """A signed-in player no longer reads another player's chat messages, in any game (games/chat.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chatmute_once")]

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"
