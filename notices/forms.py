from django import forms


class NoticePreferenceForm(forms.Form):
    email_digest = forms.BooleanField(
        required=False,
        label="Email me a daily digest of my notices",
        help_text="Sent to your account's email address, only on days something changed.",
    )
