"""Pages and endpoints of players who come back: accounts (django-allauth under /accounts/), My games,
turn notices, ratings, installable companion. Each section belongs to one module of players/."""

from django.urls import path  # noqa: F401

from games import converters  # noqa: F401  (registers <gamecode:…>)

from . import api, data_views, install_views, notices_views, ratings_views, views

urlpatterns: list = [
    # -- accounts and My games (players/views.py) --
    path("me/games", views.my_games, name="my-games"),
    path("me/games/<gamecode:code>/open", views.seat_open, name="seat-open"),
    path("api/me/seats/claim", views.SeatsClaimView.as_view(), name="api-my-seats-claim"),
    # -- turn notices (players/notices_views.py) --
    path("me/notices", notices_views.notices_page, name="notices"),
    path("me/notices/key", notices_views.vapid_key, name="notices-key"),
    path("me/notices/devices", notices_views.devices, name="notices-devices"),
    # -- ratings and profiles (players/ratings_views.py) --
    path("ratings/", ratings_views.ratings_home, name="ratings"),
    path("ratings/<slug:kind>/", ratings_views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", ratings_views.profile, name="player-profile"),
    path("players/<str:username>/mute", ratings_views.chat_mute, name="player-chat-mute"),
    path("api/players/<str:username>", api.PlayerView.as_view(), name="api-player"),
    path("api/me/away", api.AwayView.as_view(), name="api-my-away"),
    # -- your data (players/data_views.py) --
    path("me/account", data_views.account_page, name="my-account"),
    path("me/account/download", data_views.account_download, name="my-account-download"),
    path("me/account/delete", data_views.account_delete_view, name="my-account-delete"),
    path("me/account/deleted", data_views.account_deleted, name="account-deleted"),
    # -- installable companion (players/install_views.py) --
    path("manifest.webmanifest", install_views.manifest, name="manifest"),
    path("sw.js", install_views.service_worker, name="service-worker"),
    path("offline", install_views.offline, name="offline"),
]
