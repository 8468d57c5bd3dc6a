"""Django admin for game masters: every game, its seats and its log.

Nothing large is ever posted back: options, state and the log are shown read-only and folded
(a Wood and Steel board in the options is over 100 KB; a long game's log is hundreds of rows).
What a game master changes in a game — a seat renamed or handed to a bot, a pause, a resume,
the end, a replaced state — goes through games/services.py, is logged as an action in the game's
log and reaches every phone live.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from . import services
from .engines.base import RulesError
from .engines.registry import find_engine, get_engine
from .errors import ServiceError
from .models import Action, Game, Seat, SeatRemoval
from .redaction import action_redacted, reveals_all

LOG_SHOWN = 30  # the newest actions shown on a game's page; the rest are a link away


def json_folded(value, summary: str) -> str:
    """``value`` as pretty-printed JSON in a closed ``<details>``, its size in the summary."""
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
    return format_html(
        '<details class="junction-json"><summary>{} · {}</summary><pre>{}</pre></details>',
        summary, size_text(len(text.encode())), text,
    )


def size_text(size: int) -> str:
    return f"{size} bytes" if size < 1024 else f"{size / 1024:.1f} KB"


class SeatInline(admin.TabularInline):
    """A renamed seat and a seat handed to a bot go through the services (logged, live);
    seats are added and removed here only before the game starts."""

    model = Seat
    extra = 0
    fields = ("index", "name", "user", "color", "is_host", "is_bot", "bot", "joined_at", "clock", "new_device")
    readonly_fields = ("index", "user", "is_host", "joined_at", "clock", "new_device")  # user: the signed-in player (players/)

    @admin.display(description="clock")
    def clock(self, obj: Seat) -> str:
        """The seat's clock (games/clocks.py): its deadline on turn or its bank between turns, the
        expiries in a row, and whether the bot plays this turn only."""
        if obj.pk is None or not obj.game.clocked:
            return "—"
        parts = []
        if obj.turn_deadline:
            parts.append(f"on turn until {obj.turn_deadline:%Y-%m-%d %H:%M:%S} UTC")
        elif obj.game.bank_seconds:
            parts.append(f"bank {int(obj.game.bank_seconds if obj.bank_left is None else obj.bank_left)} s")
        if obj.expiries:
            parts.append(f"time ran out {obj.expiries} turn(s) in a row")
        if obj.turn_only:
            parts.append("a bot plays this turn only")
        return "; ".join(parts) or "—"

    @admin.display(description="new device")
    def new_device(self, obj: Seat) -> str:
        """A link to hand this seat to a new device (a one-time rejoin code and its QR code)."""
        if obj.pk is None or obj.game.status not in services.REJOINABLE:
            return "—"
        return format_html('<a href="{}">Rejoin code…</a>', reverse("admin:games_game_rejoin", args=[obj.game_id, obj.index]))

    def has_add_permission(self, request, obj=None):
        return obj is not None and obj.status == Game.Status.LOBBY and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return obj is not None and obj.status == Game.Status.LOBBY and super().has_delete_permission(request, obj)


CONTROLS = (
    ("", "—"),
    ("pause", "Pause (moves wait until resumed)"),
    ("resume", "Resume"),
    ("end", "End the game (say why below)"),
)


class GameForm(forms.ModelForm):
    """No model field is posted back. ``control`` pauses, resumes or ends the game; a state pasted
    into ``replace_state`` replaces the game's (an ``edit-state`` action), and is refused when the
    game moved on since the page was loaded (``loaded_version``): it would undo those moves."""

    control = forms.ChoiceField(choices=CONTROLS, required=False, label="Live control")
    reason = forms.CharField(required=False, max_length=200, help_text="Why the game is paused or ended (in the log).")
    replace_state = forms.JSONField(
        required=False, label="Replace the state",
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        help_text="Paste a whole new state (JSON) to replace the current one; leave empty to keep it.",
    )
    loaded_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Game
        fields = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["loaded_version"].initial = self.instance.version

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("control") == "end" and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", "Say why the game ends.")
        loaded = cleaned.get("loaded_version")
        if cleaned.get("replace_state") is not None and loaded is not None and loaded != self.instance.version:
            raise forms.ValidationError(
                f"The game moved on (version {loaded} → {self.instance.version}) while this page was open; "
                "reload it and make your change again."
            )
        return cleaned


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameForm
    list_display = ("code", "kind_title", "status", "listed", "version", "player_count", "created_at", "updated_at")
    list_filter = ("kind", "status", "listed")  # listed: an open table (games/listing.py), set by its host
    search_fields = ("code", "seats__name")
    readonly_fields = (
        "code", "kind_title", "status", "listed", "removed", "version", "seed", "options_folded", "state_folded", "log_folded",
        "created_at", "updated_at", "started_at", "finished_at", "clock_words",
    )
    fields = (
        "code", "kind_title", "status", "listed", "removed", "clock_words", "version", "seed", "control", "reason", "options_folded", "state_folded",
        "replace_state", "log_folded", "created_at", "updated_at", "started_at", "finished_at", "loaded_version",
    )
    inlines = [SeatInline]
    actions = ["log_export", "games_pause", "games_resume", "seats_on_turn_to_bots"]

    @admin.display(description="kind", ordering="kind")
    def kind_title(self, game: Game) -> str:
        """The kind's display name ("Locomotive Werks"), from its engine; the slug if none."""
        engine = find_engine(game.kind)  # a kind no engine serves any more still lists
        return engine.title if engine is not None else game.kind

    def has_add_permission(self, request):
        return False  # games are created in the lobby or through the API (a host token is needed)

    @admin.display(description="clock")
    def clock_words(self, game: Game) -> str:
        """The game's clock in words (games/clocks.py): a bank with its increment, a time per turn, or none."""
        from .clocks import BANK_CHOICES, TURN_SECONDS_CHOICES

        if game.bank_seconds:
            words = {(bank, increment): w for bank, increment, w in BANK_CHOICES}
            return words.get((game.bank_seconds, game.increment_seconds), f"{game.bank_seconds} s + {game.increment_seconds} s a turn")
        if game.turn_seconds:
            return dict(TURN_SECONDS_CHOICES).get(game.turn_seconds, f"{game.turn_seconds} s per turn")
        return "none"

    @admin.display(description="removed from the waiting room")
    def removed(self, game: Game) -> str:
        """Who the host removed before the start (games/seating.py seat_remove; their tokens are
        answered seat-removed), once each, oldest first; "—" for nobody."""
        names = list(dict.fromkeys(SeatRemoval.objects.filter(game=game).order_by("removed_at").values_list("name", flat=True)))
        return ", ".join(names) or "—"

    # A game master who is not a superuser reads a running game as a spectator does (games/redaction.py):
    # no seed, the spectator's view for the state, the log with every seat's hidden choices redacted.
    # Superusers keep everything (and the game master's changes work the same for both).
    SECRET_FIELDS = {"seed": "seed_kept", "state_folded": "state_spectator", "log_folded": "log_spectator"}

    def _spectating(self, request) -> bool:
        return not request.user.is_superuser

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return tuple(self.SECRET_FIELDS.get(f, f) for f in fields) if self._spectating(request) else fields

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        return [self.SECRET_FIELDS.get(f, f) for f in fields] if self._spectating(request) else fields

    @admin.display(description="seed")
    def seed_kept(self, obj: Game):
        return obj.seed if reveals_all(obj) else "kept back until the game is finished"

    @admin.display(description="state (as a spectator sees it)")
    def state_spectator(self, obj: Game) -> str:
        if obj.state is None:
            return "not started"
        if reveals_all(obj):
            return json_folded(obj.state, "state")
        try:
            return json_folded(get_engine(obj.kind).view(obj.state, seat=None), "state")
        except RulesError:
            return "kept back (no engine serves this kind)"

    @admin.display(description="log (as a spectator reads it)")
    def log_spectator(self, obj: Game) -> str:
        return self.log_folded(obj, viewer_hidden=True)

    def get_urls(self):
        rejoin = self.admin_site.admin_view(self.rejoin_view)
        return [path("<int:game_id>/rejoin/<int:seat>/", rejoin, name="games_game_rejoin"), *super().get_urls()]

    def rejoin_view(self, request, game_id: int, seat: int):
        """Hand seat ``seat`` to a new device: a confirmation (GET), then the one-time rejoin code,
        its link and QR code (POST; services.rejoin_code_create, logged when it is used)."""
        game = Game.objects.filter(pk=game_id).first()
        if game is None or not self.has_change_permission(request, game):
            raise PermissionDenied
        target = Seat.objects.filter(game=game, index=seat).first()
        if target is None:
            raise Http404("No such seat")
        context = {**self.admin_site.each_context(request), "game": game, "seat": target, "ttl_minutes": rejoin_ttl_minutes(),
                   "title": f"Hand {game.code} seat {seat} to a new device", "opts": self.model._meta}
        if request.method != "POST":
            return TemplateResponse(request, "admin/games/rejoin_code.html", {**context, "confirm": True})
        try:
            codes = [rejoin_code_shown(request, game_id=game.pk, seat=seat, by=request.user.get_username())]
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        return TemplateResponse(request, "admin/games/rejoin_code.html", {**context, "codes": codes})

    @admin.display(description="players")
    def player_count(self, obj: Game) -> int:
        return obj.seats.count()

    @admin.display(description="options")
    def options_folded(self, obj: Game) -> str:
        return json_folded(obj.options, "options")

    @admin.display(description="state")
    def state_folded(self, obj: Game) -> str:
        return "not started" if obj.state is None else json_folded(obj.state, "state")

    @admin.display(description="log")
    def log_folded(self, obj: Game, viewer_hidden: bool = False) -> str:
        count = obj.actions.count()
        if not count:
            return "empty"
        shown = _command_shown(obj) if viewer_hidden else (lambda a: a.command)
        rows = format_html_join(
            "", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            ((a.sequence, "" if a.seat is None else a.seat, json.dumps(shown(a), ensure_ascii=False),
              a.created_at.strftime("%Y-%m-%d %H:%M:%S"))
             for a in obj.actions.order_by("-sequence")[:LOG_SHOWN]),
        )
        link = reverse("admin:games_action_changelist") + f"?q={obj.code}"
        return format_html(
            '<details class="junction-log"><summary>{} actions (the newest {} here; <a href="{}">all of them</a>)</summary>'
            "<table><thead><tr><th>#</th><th>seat</th><th>command</th><th>at</th></tr></thead><tbody>{}</tbody></table></details>",
            count, min(count, LOG_SHOWN), link, rows,
        )

    def save_model(self, request, obj, form, change):
        """Only the game master's requests, each through its service: no column is written here."""
        by = request.user.get_username()
        data = form.cleaned_data
        try:
            if data.get("replace_state") is not None:
                result = services.game_state_edit(game_id=obj.pk, state=data["replace_state"], editor=by)
                self.message_user(request, f"The new state is action {result.version} in the game's log; players have it.")
            control, reason = data.get("control"), (data.get("reason") or "").strip()
            if control == "pause":
                services.game_pause(game_id=obj.pk, by=by, reason=reason)
            elif control == "resume":
                services.game_resume(game_id=obj.pk, by=by)
            elif control == "end":
                services.game_end(game_id=obj.pk, by=by, reason=reason)
        except ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)

    def save_formset(self, request, form, formset, change):
        if formset.model is not Seat:
            return super().save_formset(request, form, formset, change)
        by = request.user.get_username()
        game = form.instance
        rest = False  # a change no service made (a colour, a bot back to a person, a lobby seat added or removed)
        for seat_form in formset.initial_forms:
            if not seat_form.has_changed() or seat_form in formset.deleted_forms:
                continue
            before = Seat.objects.get(pk=seat_form.instance.pk)
            data = seat_form.cleaned_data
            try:
                if "name" in seat_form.changed_data:
                    services.seat_rename(game_id=game.pk, seat=before.index, name=data["name"], by=by)
                if data.get("is_bot") and ({"is_bot", "bot"} & set(seat_form.changed_data)):
                    bot = data.get("bot") or bot_default(game)
                    services.seat_bot_assign(game_id=game.pk, seat=before.index, bot=bot, by=by)
                    seat_form.instance.bot = bot
            except ServiceError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            rest = rest or bool(set(seat_form.changed_data) - {"name", "bot"} - ({"is_bot"} if data.get("is_bot") else set()))
        formset.save()  # the same values again, and what the services do not cover
        if rest or formset.new_objects or formset.deleted_objects:
            services.game_seats_changed(game_id=game.pk)

    # -- the changelist's actions ------------------------------------------------------

    @admin.action(description="Export the log as JSON (a download)")
    def log_export(self, request, queryset):
        games = [game_export(game, spectating=self._spectating(request)) for game in queryset.prefetch_related("seats")]
        body = json.dumps(games[0] if len(games) == 1 else games, indent=2, ensure_ascii=False)
        name = f"junction-{games[0]['code']}.json" if len(games) == 1 else "junction-games.json"
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    @admin.action(description="Pause the selected games")
    def games_pause(self, request, queryset):
        self._each(request, queryset, lambda game, by: services.game_pause(game_id=game.pk, by=by), "paused")

    @admin.action(description="Resume the selected games")
    def games_resume(self, request, queryset):
        self._each(request, queryset, lambda game, by: services.game_resume(game_id=game.pk, by=by), "resumed")

    @admin.action(description="Hand the seats on turn to bots (players who left)")
    def seats_on_turn_to_bots(self, request, queryset):
        def hand(game, by):
            engine = get_engine(game.kind)
            if not engine.bots or game.state is None or game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
                raise ServiceError("no-seat-to-hand", f"{game.code}: no seat on turn to hand to a bot.")
            people = {s.index for s in game.seats.all() if not s.is_bot}
            waiting = [seat for seat in engine.active_seats(game.state) if seat in people]
            if not waiting:
                raise ServiceError("no-seat-to-hand", f"{game.code}: every seat on turn is a bot already.")
            for seat in waiting:
                services.seat_bot_assign(game_id=game.pk, seat=seat, bot=engine.bot_default(), by=by)

        self._each(request, queryset, hand, "handed to bots")

    def _each(self, request, queryset, fn, done: str) -> None:
        by, count = request.user.get_username(), 0
        for game in queryset:
            try:
                fn(game, by)
                count += 1
            except ServiceError as exc:
                self.message_user(request, f"{game.code}: {exc.message}", messages.WARNING)
        if count:
            self.message_user(request, f"{count} game(s) {done}.")


def bot_default(game: Game) -> str:
    """The bot a seat of ``game`` gets when the game master ticked "is bot" and named none: the
    kind's default (its best, Engine.bot_default). ServiceError when the kind has no bots."""
    engine = get_engine(game.kind)
    bot = engine.bot_default()
    if bot is None:
        raise ServiceError("unknown-bot", f"{engine.title} has no bots.")
    return bot


def rejoin_ttl_minutes() -> int:
    from django.conf import settings

    return max(1, round(settings.JUNCTION_REJOIN_TTL / 60))


def rejoin_code_shown(request, *, game_id: int, seat: int, by: str) -> dict:
    """A new rejoin code for the seat (services.rejoin_code_create) as the admin page shows it:
    the code, its link at the address phones reach, its QR code."""
    from .tokens import rejoin_code_display
    from .views import rejoin_link

    issued = services.rejoin_code_create(game_id=game_id, seat=seat, by=by)
    url, svg = rejoin_link(request, game_code=issued.game.code, rejoin_code=issued.code)
    return {"game": issued.game.code, "seat": seat, "name": issued.seat.name, "code": rejoin_code_display(issued.code),
            "url": url, "qr_svg": svg, "expires_at": issued.expires_at}


def _command_shown(game: Game):
    """A function from an action of ``game`` to its command as a spectator reads it (games/redaction.py)."""
    reveal = reveals_all(game)
    engine = find_engine(game.kind)

    def shown(action: Action) -> dict:
        return action_redacted(engine=engine, command=action.command, events=[], actor=action.seat, viewer=None, reveal=reveal)[0]
    return shown


def _events_shown(game: Game, action: Action) -> list:
    return action_redacted(engine=find_engine(game.kind), command=action.command, events=action.events, actor=action.seat, viewer=None,
                           reveal=reveals_all(game))[1]


def game_export(game: Game, *, spectating: bool = False) -> dict:
    """Everything that rebuilds the game: seed, options, seats and the whole log. ``spectating`` (a game master
    who is not a superuser): a running game's seed is kept back and its log is the spectators' (games/redaction.py)."""
    if spectating and not reveals_all(game):
        shown = _command_shown(game)
        return {
            "code": game.code, "kind": game.kind, "status": game.status, "version": game.version, "seed": None,
            "options": game.options,
            "seats": [{"index": s.index, "name": s.name, "color": s.color, "is_host": s.is_host, "is_bot": s.is_bot, "bot": s.bot}
                      for s in game.seats.all()],
            "actions": [
                {"sequence": a.sequence, "seat": a.seat, "command": shown(a), "events": _events_shown(game, a),
                 "command_id": a.command_id, "created_at": a.created_at.isoformat()}
                for a in game.actions.order_by("sequence")
            ],
        }
    return {
        "code": game.code, "kind": game.kind, "status": game.status, "version": game.version, "seed": game.seed,
        "options": game.options,
        "seats": [{"index": s.index, "name": s.name, "color": s.color, "is_host": s.is_host, "is_bot": s.is_bot, "bot": s.bot}
                  for s in game.seats.all()],
        "actions": [
            {"sequence": a.sequence, "seat": a.seat, "command": a.command, "events": a.events,
             "command_id": a.command_id, "created_at": a.created_at.isoformat()}
            for a in game.actions.order_by("sequence")
        ],
    }


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("game", "sequence", "seat", "command_name", "created_at")
    list_filter = ("game__kind",)
    search_fields = ("game__code", "command_id")
    readonly_fields = ("game", "sequence", "seat", "command", "events", "command_id", "created_at")

    @admin.display(description="command")
    def command_name(self, obj: Action) -> str:
        return obj.command.get("cmd", "?")

    # A game master who is not a superuser reads a running game's action as a spectator (games/redaction.py).
    def get_readonly_fields(self, request, obj=None):
        if request.user.is_superuser:
            return self.readonly_fields
        return ("game", "sequence", "seat", "command_spectator", "events_spectator", "command_id", "created_at")

    def get_fields(self, request, obj=None):
        return self.get_readonly_fields(request, obj)

    @admin.display(description="command (as a spectator reads it)")
    def command_spectator(self, obj: Action) -> str:
        return json.dumps(_command_shown(obj.game)(obj), ensure_ascii=False)

    @admin.display(description="events (as a spectator reads them)")
    def events_spectator(self, obj: Action) -> str:
        return json.dumps(_events_shown(obj.game, obj), ensure_ascii=False)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # the log is append-only


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "index", "name", "user", "color", "is_host", "is_bot")
    search_fields = ("game__code", "name", "user__username", "user__email")
    list_select_related = ("game", "user")
    raw_id_fields = ("user",)  # the signed-in player holding the seat (players/); empty: a guest
    actions = ["seats_to_bots", "seats_to_new_devices"]

    def save_model(self, request, obj, form, change):
        if change and obj.game.status != Game.Status.LOBBY and {"name", "is_bot", "bot"} & set(form.changed_data):
            by = request.user.get_username()
            if "name" in form.changed_data:
                services.seat_rename(game_id=obj.game_id, seat=obj.index, name=obj.name, by=by)
            if obj.is_bot and {"is_bot", "bot"} & set(form.changed_data):
                obj.bot = obj.bot or bot_default(obj.game)
                services.seat_bot_assign(game_id=obj.game_id, seat=obj.index, bot=obj.bot, by=by)
        super().save_model(request, obj, form, change)
        services.game_seats_changed(game_id=obj.game_id)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        services.game_seats_changed(game_id=obj.game_id)

    def delete_queryset(self, request, queryset):
        game_ids = set(queryset.values_list("game_id", flat=True))
        super().delete_queryset(request, queryset)
        for game_id in game_ids:
            services.game_seats_changed(game_id=game_id)

    @admin.action(description="Hand the selected seats to new devices (one-time rejoin codes)")
    def seats_to_new_devices(self, request, queryset):
        """A rejoin code, link and QR code for each selected seat, shown on one page."""
        by, codes = request.user.get_username(), []
        for seat in queryset.select_related("game").order_by("game_id", "index"):
            try:
                codes.append(rejoin_code_shown(request, game_id=seat.game_id, seat=seat.index, by=by))
            except ServiceError as exc:
                self.message_user(request, f"{seat}: {exc.message}", messages.WARNING)
        if not codes:
            return None
        games = {seat.game for seat in queryset.select_related("game")}
        context = {**self.admin_site.each_context(request), "codes": codes, "ttl_minutes": rejoin_ttl_minutes(),
                   "game": next(iter(games)) if len(games) == 1 else None, "title": "Hand seats to new devices",
                   "opts": self.model._meta}
        return TemplateResponse(request, "admin/games/rejoin_code.html", context)

    @admin.action(description="Replace the selected (absent) players with bots")
    def seats_to_bots(self, request, queryset):
        by, count = request.user.get_username(), 0
        for seat in queryset.select_related("game"):
            bot = get_engine(seat.game.kind).bot_default()
            if seat.is_bot or bot is None:
                continue
            try:
                services.seat_bot_assign(game_id=seat.game_id, seat=seat.index, bot=bot, by=by)
                count += 1
            except ServiceError as exc:
                self.message_user(request, f"{seat}: {exc.message}", messages.WARNING)
        self.message_user(request, f"{count} seat(s) handed to a bot.")


# -- chat (games/chat.py): read, and hidden by a game master; never edited -----------------------------

from .chat import chat_hide  # noqa: E402
from .models import ChatMessage  # noqa: E402


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "name", "audience", "text", "created_at", "hidden_by")
    list_filter = ("audience", "game__kind")
    search_fields = ("game__code", "name", "text")
    readonly_fields = ("game", "seat", "user", "name", "audience", "text", "created_at", "hidden_at", "hidden_by")
    actions = ["messages_hide"]

    @admin.action(description="Hide the selected messages from every page")
    def messages_hide(self, request, queryset):
        hidden = sum(chat_hide(message_id=pk, by=request.user.get_username()) for pk in queryset.values_list("pk", flat=True))
        self.message_user(request, f"{hidden} message(s) hidden.")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # hidden, never deleted: the game master's record of what was said


from .away import away_end  # noqa: E402
from .models import AwayPeriod  # noqa: E402


@admin.register(AwayPeriod)
class AwayPeriodAdmin(admin.ModelAdmin):
    """Players' declared absences (games/away.py): their clocks in slow games wait while one lasts."""

    list_display = ("user", "starts_at", "ends_at", "created_at")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
    readonly_fields = ("user", "starts_at", "ends_at", "created_at")
    actions = ["periods_end"]

    @admin.action(description="End the selected away periods now (their unused time comes off the players' clocks)")
    def periods_end(self, request, queryset):
        ended = sum(away_end(user=period.user) is not None for period in queryset.select_related("user"))
        self.message_user(request, f"{ended} away period(s) ended.")

    def has_add_permission(self, request):
        return False  # a player declares their own (My games)
