"""Django admin for game masters: every game, its seats and its log; state editable."""

from __future__ import annotations

from django.contrib import admin

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


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("code", "kind", "status", "version", "player_count", "created_at", "updated_at")
    list_filter = ("kind", "status")
    search_fields = ("code", "seats__name")
    readonly_fields = ("created_at", "updated_at", "started_at", "finished_at")
    fields = ("code", "kind", "status", "version", "seed", "options", "state", "created_at", "updated_at", "started_at", "finished_at")
    inlines = [SeatInline, ActionInline]

    @admin.display(description="players")
    def player_count(self, obj: Game) -> int:
        return obj.seats.count()

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change:
            from django.db import transaction

            from . import hooks

            if obj.state is not None:
                hooks.state_saved(obj.kind, obj, obj.state)
            from .services import _after_commit

            transaction.on_commit(lambda: _after_commit(obj.pk, schedule_bots=False))


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
