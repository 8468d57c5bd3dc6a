"""Django admin for game masters: every game, its seats and its log; state editable."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db import transaction

from . import hooks, services
from .errors import Conflict
from .models import Action, Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "name", "color", "is_host", "is_bot", "bot", "joined_at")
    readonly_fields = ("joined_at",)


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    fields = ("sequence", "seat", "command", "events", "command_id", "created_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True
    ordering = ("-sequence",)
    max_num = 0

    def get_queryset(self, request):
        return super().get_queryset(request).order_by("-sequence")


class GameForm(forms.ModelForm):
    """Carries the version the page was loaded at: saving after the game moved on would write
    the page's old state over the moves made since, so it is refused instead."""

    loaded_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Game
        fields = ("code", "kind", "status", "seed", "options", "state")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["loaded_version"].initial = self.instance.version

    def clean(self):
        cleaned = super().clean()
        loaded = cleaned.get("loaded_version")
        if self.instance.pk is not None and loaded is not None and loaded != self.instance.version:
            raise forms.ValidationError(
                f"The game moved on (version {loaded} → {self.instance.version}) while this page was open; "
                "reload it and make your change again."
            )
        return cleaned


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameForm
    list_display = ("code", "kind", "status", "version", "player_count", "created_at", "updated_at")
    list_filter = ("kind", "status")
    search_fields = ("code", "seats__name")
    # The version is the log's: an edited state becomes an action (services.game_state_edit).
    readonly_fields = ("version", "created_at", "updated_at", "started_at", "finished_at")
    fields = (
        "code", "kind", "status", "version", "seed", "options", "state",
        "created_at", "updated_at", "started_at", "finished_at", "loaded_version",
    )
    inlines = [SeatInline, ActionInline]

    @admin.display(description="players")
    def player_count(self, obj: Game) -> int:
        return obj.seats.count()

    def save_model(self, request, obj, form, change):
        """Writes only what the game master changed; a new state of a started game goes through
        the log (services.game_state_edit). The form refused a page older than the game."""
        if not change:
            super().save_model(request, obj, form, change)
            return
        columns = {f.name for f in Game._meta.concrete_fields} - {"state", "version"}
        fields = [f for f in form.changed_data if f in columns]
        if "state" in form.changed_data:
            try:
                result = services.game_state_edit(game_id=obj.pk, state=obj.state, editor=request.user.get_username())
            except Conflict:  # not started: no log to keep, the state is saved as it is
                fields.append("state")
            else:
                self.message_user(request, f"The new state is action {result.version} in the game's log; players have it.")
        if fields:
            obj.save(update_fields=[*fields, "updated_at"])
            obj.refresh_from_db()
            if "state" in fields and obj.state is not None:
                hooks.state_saved(obj.kind, obj, obj.state)
            if "state" in fields or "state" not in form.changed_data:  # an edit already tells everyone
                transaction.on_commit(lambda: services._after_commit(obj.pk, schedule_bots=False))

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Seat and (formset.new_objects or formset.changed_objects or formset.deleted_objects):
            services.game_seats_changed(game_id=form.instance.pk)


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("game", "sequence", "seat", "command_name", "created_at")
    list_filter = ("game__kind",)
    search_fields = ("game__code", "command_id")
    readonly_fields = ("game", "sequence", "seat", "command", "events", "command_id", "created_at")

    @admin.display(description="command")
    def command_name(self, obj: Action) -> str:
        return obj.command.get("cmd", "?")

    def has_add_permission(self, request):
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "index", "name", "color", "is_host", "is_bot")
    search_fields = ("game__code", "name")

    def save_model(self, request, obj, form, change):
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
