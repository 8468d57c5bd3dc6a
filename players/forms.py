"""django-allauth's forms in the site's words (ACCOUNT_FORMS): the sign-in field says what to type."""

from __future__ import annotations

from allauth.account.forms import LoginForm


class SignInForm(LoginForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = "Your name or e-mail"  # allauth's own label is "Login"
        login.widget.attrs["placeholder"] = "The name or e-mail you signed up with"
        login.widget.attrs["autocomplete"] = "username"
