from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from . import scopes


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=True, help_text="Used only to reset your password.")

    class Meta:
        model = User
        fields = ("username", "email")


class ApiTokenForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="What the token is for (a script, a tool).")
    scope = forms.MultipleChoiceField(
        label="Scopes",
        choices=list(scopes.SCOPES.items()),
        initial=scopes.READ_ONLY,
        widget=forms.CheckboxSelectMultiple,
        help_text="What the token may do; it can do nothing else.",
    )
    expiry_days = forms.IntegerField(
        label="Expires after (days)",
        required=False,
        min_value=1,
        max_value=366,
        help_text="Leave empty for a token that does not expire.",
    )
