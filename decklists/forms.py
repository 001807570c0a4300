from typing import cast

from django import forms

from .models import COMMENT_MAX, DESCRIPTION_MAX, REASON_MAX


class PublishForm(forms.Form):
    name = forms.CharField(max_length=200, label="Name of the decklist")
    description = forms.CharField(
        required=False,
        max_length=DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 8}),
        label="Description",
        help_text=f"Markdown (at most {DESCRIPTION_MAX} characters): how it plays, what to "
        "mulligan for, what it fears. Links get rel=nofollow.",
    )


class PublishSetForm(PublishForm):
    name = forms.CharField(max_length=200, label="Name of the set")
    decks = forms.MultipleChoiceField(
        label="Decks played together", widget=forms.CheckboxSelectMultiple, choices=[]
    )

    def __init__(self, *args, decks=(), **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.MultipleChoiceField, self.fields["decks"]).choices = [
            (str(d.pk), f"{d.name} ({d.game.name}, {d.format})") for d in decks
        ]


class CommentForm(forms.Form):
    # No maxlength in the page: a longer text is refused by the server with the limit.
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Your comment",
        help_text=f"Markdown, at most {COMMENT_MAX} characters; @name tells a user.",
    )
    reply_to = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.CharField, self.fields["text"]).max_length = None
        self.fields["text"].widget.attrs.pop("maxlength", None)


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=REASON_MAX, label="Reason")
