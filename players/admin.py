"""Game masters' admin of players: the auth user's admin with the games each player sits in.
Other sections of players/ add their inlines to ``PlayerAdmin.inlines`` here."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count
from django.urls import reverse
from django.utils.html import format_html

from games.engines.registry import get_engine
from games.models import Seat

# -- accounts and My games: a player's seats (games.Seat.user) ----------------------------


class PlayerSeatInline(admin.TabularInline):
    """Every seat the player holds, newest game first: read-only (seats change in the game's
    admin, through the services)."""

    model = Seat
    fk_name = "user"
    extra = 0
    can_delete = False
    verbose_name = "game"
    verbose_name_plural = "games (the player's seats)"
    fields = ("game_code", "game_kind", "game_status", "name", "index", "joined_at")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game").order_by("-game__updated_at", "index")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="game")
    def game_code(self, obj: Seat) -> str:
        return format_html('<a href="{}">{}</a>', reverse("admin:games_game_change", args=[obj.game_id]), obj.game.code)

    @admin.display(description="kind")
    def game_kind(self, obj: Seat) -> str:
        try:
            return get_engine(obj.game.kind).title
        except Exception:  # a kind no longer installed
            return obj.game.kind

    @admin.display(description="status")
    def game_status(self, obj: Seat) -> str:
        return obj.game.get_status_display()


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    inlines = [*UserAdmin.inlines, PlayerSeatInline]
    list_display = (*UserAdmin.list_display, "games_count")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(games_count=Count("seats", distinct=True))

    @admin.display(description="games", ordering="games_count")
    def games_count(self, obj) -> int:
        return obj.games_count


# -- ratings (players/ratings.py): read-only; manage.py recompute_ratings rebuilds them --------

from .models import Rating, RatingChange  # noqa: E402
from .ratings import rating_displayed  # noqa: E402


class _RatingsReadOnly:
    """Ratings change only through rated games and the recompute command: nothing is added,
    changed or deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _kind_title(kind: str) -> str:
    try:
        return get_engine(kind).title
    except Exception:  # a kind no longer installed
        return kind


@admin.register(Rating)
class RatingAdmin(_RatingsReadOnly, admin.ModelAdmin):
    list_display = ("user", "kind_title", "displayed", "mu", "sigma", "games", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = ("user", "kind", "displayed", "mu", "sigma", "games", "updated_at")
    readonly_fields = fields

    @admin.display(description="kind", ordering="kind")
    def kind_title(self, obj: Rating) -> str:
        return _kind_title(obj.kind)

    @admin.display(description="rating (μ − 3σ)")
    def displayed(self, obj: Rating) -> str:
        return f"{rating_displayed(obj.mu, obj.sigma):.1f}"


@admin.register(RatingChange)
class RatingChangeAdmin(_RatingsReadOnly, admin.ModelAdmin):
    list_display = ("game_code", "user", "kind_title", "rank", "change", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "game__code")
    list_select_related = ("user", "game")
    fields = ("game_code", "user", "kind", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after", "change", "created_at")
    readonly_fields = fields

    @admin.display(description="game", ordering="game__code")
    def game_code(self, obj: RatingChange) -> str:
        return format_html('<a href="{}">{}</a>', reverse("admin:games_game_change", args=[obj.game_id]), obj.game.code)

    @admin.display(description="kind", ordering="kind")
    def kind_title(self, obj: RatingChange) -> str:
        return _kind_title(obj.kind)

    @admin.display(description="rating (μ − 3σ)")
    def change(self, obj: RatingChange) -> str:
        before, after = rating_displayed(obj.mu_before, obj.sigma_before), rating_displayed(obj.mu_after, obj.sigma_after)
        return f"{before:.1f} → {after:.1f}"


class PlayerRatingInline(_RatingsReadOnly, admin.TabularInline):
    """The player's rating in each kind, on the player's admin page."""

    model = Rating
    extra = 0
    verbose_name_plural = "ratings"
    fields = ("kind", "displayed", "mu", "sigma", "games", "updated_at")
    readonly_fields = fields

    @admin.display(description="rating (μ − 3σ)")
    def displayed(self, obj: Rating) -> str:
        return f"{rating_displayed(obj.mu, obj.sigma):.1f}"


PlayerAdmin.inlines = [*PlayerAdmin.inlines, PlayerRatingInline]
