from allauth.account.decorators import secure_admin_login
from csp.decorators import csp_update
from django.contrib import admin
from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api.health import HealthView, LivenessView, ReadinessView
from games.api.views import ProtocolView

# Swagger UI: its page and its start-up script are two requests (no inline script); the UI
# styles its elements inline and draws its icons from data: URLs, so this one page's
# Content-Security-Policy allows both.
api_docs = csp_update({"style-src": ["'unsafe-inline'"], "img-src": ["data:"]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

# Game masters sign in where players do (allauth's sign-in, with its limits: a few failures per account
# and per address lock it for a while); /admin/login/ takes no password of its own.
admin.site.login = secure_admin_login(admin.site.login)


def favicon(request):
    """Browsers ask for /favicon.ico whatever a page links: the site's icon (a redirect, not
    permanent: the static name carries the file's hash in production)."""
    return HttpResponseRedirect(static("img/favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),  # sign-up, sign-in, sign-out, password reset (players/)
    path("livez", LivenessView.as_view(), name="livez"),
    path("readyz", ReadinessView.as_view(), name="readyz"),
    path("healthz", HealthView.as_view(), name="healthz"),  # readiness, and "degraded" when only Redis is down
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("api", ProtocolView.as_view(), name="api-protocol"),  # the fantasy rail notes' protocol: POST /api
    path("api/", include("games.api.urls")),
    path("api/wood-and-steel/", include("companion.urls")),
    path("", include("players.urls")),
    path("", include("companion.page_urls")),
    path("", include("games.urls")),
]
