"""POST /api/validate/: a list checked against a game's format, without a deck."""

from __future__ import annotations

from typing import cast

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api_input import validated
from cardsite.ratelimit import ScopedRateThrottle
from cardsite.schema_fields import FormatField
from validation import packages
from validation.registry import UnknownFormat, registry

from .. import lists, services
from ..lists import ListInvalid, list_check
from ..serializers import ListTextField, SectionsField
from .answers import BAD_REQUEST, deck_invalid_response


class ValidateRequestSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=[])
    format = FormatField(max_length=40)
    list = ListTextField(required=False, allow_blank=True)
    sections = SectionsField(required=False)
    options = serializers.DictField(required=False)
    as_of = serializers.DateField(
        required=False,
        help_text="check under the format's rule set in effect on this date (YYYY-MM-DD); "
        "by default today's",
    )
    rule_set = serializers.CharField(
        required=False,
        max_length=40,
        help_text="check under the format's rule set of this code, whatever its dates",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["game"]).choices = registry.slugs()

    def validate(self, attrs):
        if ("list" in attrs) == ("sections" in attrs):
            raise serializers.ValidationError(
                "give either 'list' (the text) or 'sections', not both"
            )
        game = registry.get(attrs["game"])
        try:
            game.format(attrs["format"])
        except UnknownFormat as exc:
            raise serializers.ValidationError({"format": str(exc)}) from exc
        if "as_of" in attrs and "rule_set" in attrs:
            raise serializers.ValidationError(
                {"rule_set": "give either 'as_of' (a date) or 'rule_set' (a code), not both"}
            )
        try:
            attrs["chosen"] = lists.chosen_rule_set(
                game_slug=attrs["game"],
                format=attrs["format"],
                code=attrs.get("rule_set"),
                as_of=attrs.get("as_of"),
            )
        except services.DeckInvalid as exc:
            raise serializers.ValidationError(exc.errors) from exc
        return attrs


ViolationSerializer = inline_serializer(
    "Violation",
    {
        "code": serializers.CharField(help_text="the rule's stable code (for programs)"),
        "severity": serializers.ChoiceField(choices=["error", "warning"]),
        "message": serializers.CharField(
            help_text="a sentence for a person; starts with the list's lines ('Line 4: …') "
            "when it is about a card of a text list"
        ),
        "section": serializers.CharField(),
        "cards": serializers.ListField(child=serializers.CharField()),
        "lines": serializers.ListField(
            child=serializers.IntegerField(),
            help_text="the numbers of the text list's lines holding those cards (empty for a "
            "list given as sections, or a problem about a whole section)",
        ),
    },
)
UnknownLineSerializer = inline_serializer(
    "UnknownLine",
    {
        "line": serializers.IntegerField(
            help_text="the line number (text) or the item's index in its section (sections)"
        ),
        "section": serializers.CharField(),
        "name": serializers.CharField(help_text="the name as written"),
        "message": serializers.CharField(),
        "suggestions": serializers.ListField(
            child=serializers.CharField(), help_text="the closest card names, best first"
        ),
    },
)
ReportSerializer = inline_serializer(
    "ValidationReport",
    {
        "legal": serializers.BooleanField(
            help_text="no rule error and every card line read (false while `unknown` is not empty)"
        ),
        "errors": ViolationSerializer.__class__(many=True),
        "warnings": ViolationSerializer.__class__(many=True),
        "totals": serializers.DictField(),
        "rule_set": serializers.CharField(
            allow_null=True,
            help_text="the code of the format's rule set the list was checked under (its "
            "pool, bans, limits and costs), or null for the bare format (none in effect)",
        ),
        "unknown": UnknownLineSerializer.__class__(
            many=True,
            help_text="card lines not read: an unknown name (or one matching several cards, "
            "or an expansion code that does not print the card); the rules checked the "
            "other lines",
        ),
    },
)


def _example_request() -> dict[str, str]:
    """A request of the API docs that the server accepts: the first game's sample deck of a
    format that has one (the sample catalogue holds its cards)."""
    for game in registry.all():
        for sample in packages.sample_lists(game.slug):
            return {"game": game.slug, "format": sample.format, "list": sample.text()}
    game = registry.all()[0]
    fmt = next(iter(game.formats.values()))
    return {"game": game.slug, "format": fmt.slug, "list": ""}


_EXAMPLE_REQUEST = _example_request()


class ValidateView(APIView):
    """Check a deck list against a game's format: every error and warning, the totals, and
    the card lines whose card is unknown (with the closest names), all at once. The list is
    checked under the format's rule set in effect today, or on `as_of`, or the one of code
    `rule_set`; the answer's `rule_set` names the one used. A list with
    unknown names still answers 200 with the rule problems of the lines that were read (not
    legal); a list that does not parse (a line without a count, an unknown section) answers
    400 with its line errors."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"POST": "read"}

    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "validate"

    @extend_schema(
        request=ValidateRequestSerializer,
        responses={200: ReportSerializer, 400: BAD_REQUEST},
        examples=[
            OpenApiExample(
                "text list",
                value=_EXAMPLE_REQUEST,
                request_only=True,
            )
        ],
    )
    def post(self, request):
        data = validated(ValidateRequestSerializer, request)
        try:
            checked = list_check(
                game_slug=data["game"],
                format=data["format"],
                text=data.get("list"),
                sections=data.get("sections"),
                options=data.get("options"),
                owner=request.user,
                report_unknown=True,
                rule_set=data["chosen"],
            )
        except ListInvalid as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        except services.DeckInvalid as exc:
            return deck_invalid_response(exc)
        return Response(checked.answer())
