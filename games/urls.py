from django.urls import path

from . import converters, rules_views, views  # noqa: F401  (importing converters registers <gamecode:…>)

urlpatterns = [
    path("", views.home, name="home"),
    path("join/<gamecode:code>", views.join, name="join"),
    path("rules/", rules_views.rules_index, name="rules-index"),
    path("rules/<slug:kind>/", rules_views.rules_page, name="rules"),
    path("games/<gamecode:code>/", views.room, name="room"),
    path("games/<gamecode:code>/replay", views.replay, name="replay"),
    path("games/<gamecode:code>/rejoin", views.rejoin, name="rejoin"),
    path("games/<gamecode:code>/qr.svg", views.join_qr, name="join-qr"),
]
