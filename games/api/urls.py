from django.urls import path

from games import converters  # noqa: F401  (registers <gamecode:…>)

from . import views

urlpatterns = [
    path("kinds", views.KindsView.as_view(), name="api-kinds"),
    path("kinds/<slug:kind>/content", views.KindContentView.as_view(), name="api-kind-content"),
    path("games", views.GamesView.as_view(), name="api-games"),
    path("games/<gamecode:code>", views.GameView.as_view(), name="api-game"),
    path("games/<gamecode:code>/seats", views.SeatsView.as_view(), name="api-seats"),
    path("games/<gamecode:code>/seats/order", views.SeatOrderView.as_view(), name="api-seats-order"),
    path("games/<gamecode:code>/seats/<int:seat>/rejoin-code", views.RejoinCodeView.as_view(), name="api-rejoin-code"),
    path("games/<gamecode:code>/rejoin", views.RejoinView.as_view(), name="api-rejoin"),
    path("games/<gamecode:code>/seats/me/return", views.SeatReturnView.as_view(), name="api-seat-return"),
    path("games/<gamecode:code>/seats/me/resign", views.ResignView.as_view(), name="api-seat-resign"),
    path("games/<gamecode:code>/seats/<int:seat>/bot", views.SeatBotView.as_view(), name="api-seat-bot"),
    path("games/<gamecode:code>/seats/<int:seat>/remove", views.SeatRemoveView.as_view(), name="api-seat-remove"),
    path("games/<gamecode:code>/listing", views.ListingView.as_view(), name="api-listing"),
    path("games/<gamecode:code>/start", views.StartView.as_view(), name="api-start"),
    path("games/<gamecode:code>/rematch", views.RematchView.as_view(), name="api-rematch"),
    path("games/<gamecode:code>/chat", views.ChatView.as_view(), name="api-chat"),
    path("games/<gamecode:code>/state", views.StateView.as_view(), name="api-state"),
    path("games/<gamecode:code>/commands", views.CommandsView.as_view(), name="api-commands"),
    path("games/<gamecode:code>/plan", views.PlanView.as_view(), name="api-plan"),
    path("games/<gamecode:code>/actions", views.ActionsView.as_view(), name="api-actions"),
    path("games/<gamecode:code>/replay", views.ReplayView.as_view(), name="api-replay"),
]
