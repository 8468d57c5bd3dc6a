from django.urls import path

from . import views

urlpatterns = [
    path("kinds", views.KindsView.as_view(), name="api-kinds"),
    path("games", views.GamesView.as_view(), name="api-games"),
    path("games/<str:code>", views.GameView.as_view(), name="api-game"),
    path("games/<str:code>/seats", views.SeatsView.as_view(), name="api-seats"),
    path("games/<str:code>/start", views.StartView.as_view(), name="api-start"),
    path("games/<str:code>/state", views.StateView.as_view(), name="api-state"),
    path("games/<str:code>/commands", views.CommandsView.as_view(), name="api-commands"),
    path("games/<str:code>/actions", views.ActionsView.as_view(), name="api-actions"),
    path("games/<str:code>/replay", views.ReplayView.as_view(), name="api-replay"),
]
