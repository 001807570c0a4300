"""The contract: a client generated from /api/schema/ by openapi-python-client (no warnings)
drives a whole workflow against a live site, unpatched: list games; search cards; fetch a
card; validate lists (an unknown card, a rule problem); create a deck with sections; rename
it; add a version; start a goldfish with parameters and poll it to the end; export text and
JSON; read the bulk index and one file; list your notices and mark them read."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.simulations.conftest import sample_list

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

VENV_BIN = Path(sys.executable).parent
PDF = "application/pdf"


@pytest.fixture
def generated(live_server, tmp_path, monkeypatch):
    """The client package, generated now from the live site's schema."""
    import httpx

    schema = httpx.get(
        f"{live_server.url}/api/schema/",
        headers={"Accept": "application/vnd.oai.openapi+json"},
        timeout=60,
    )
    assert schema.status_code == 200
    path = tmp_path / "openapi.json"
    path.write_text(schema.text)
    # PDF exports are bytes to the client (docs/api.md, "Decks and collections").
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"content_type_overrides": {PDF: "application/octet-stream"}}))
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(VENV_BIN / "openapi-python-client"), "generate", "--path", str(path)]
        + ["--config", str(config)]
        + ["--meta", "none", "--output-path", str(tmp_path / "cardsite_api_client")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "warning" not in output.lower(), output
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in list(sys.modules):
        if name.startswith("cardsite_api_client"):
            del sys.modules[name]
    return importlib.import_module("cardsite_api_client")


def test_every_generated_module_imports(generated):
    import pkgutil

    api = importlib.import_module("cardsite_api_client.api")
    names = [m.name for m in pkgutil.walk_packages(api.__path__, "cardsite_api_client.api.")]
    assert len(names) > 40
    for name in names:
        importlib.import_module(name)


def test_a_tool_authors_workflow_through_the_generated_client(
    generated, live_server, live_catalogue, user, other_user, celery_worker_process
):
    """The whole workflow with a token an app was given through OAuth (PKCE, every scope),
    as a community tool would hold it."""
    from django.test import Client

    from cardsite import scopes
    from tests.api.test_oauth import consent, exchange, pkce, register

    browser = Client()
    app = register(browser, other_user, name="Workflow tool")
    verifier, challenge = pkce()
    code = consent(browser, user, app, challenge, scope=" ".join(scopes.SCOPES))
    answer = exchange(browser, app, code, verifier)
    assert answer.status_code == 200, answer.content.decode()
    secret = answer.json()["access_token"]
    c = generated.AuthenticatedClient(base_url=live_server.url, token=secret, timeout=60)
    api = importlib.import_module("cardsite_api_client.api")
    models = importlib.import_module("cardsite_api_client.models")
    mod = lambda group, name: importlib.import_module(f"{api.__name__}.{group}.{name}")  # noqa: E731

    games = mod("games", "games_list").sync(client=c)
    assert "redline" in [g.slug for g in games]

    found = mod("cards", "cards_list").sync(
        client=c, game=models.CardsListGame.REDLINE, q="Tigercat"
    )
    assert found.count >= 1
    card = mod("cards", "cards_retrieve").sync(client=c, id=found.results[0].id)
    assert card.name == "Tigercat"

    # One list with an unknown card and a rule problem: both answered at once.
    checked = mod("validate", "validate_create").sync(
        client=c,
        body=models.ValidateRequestWithList(
            game=models.GameEnum.REDLINE,
            format_=models.FormatEnum.STANDARD,
            list_="General:\n1 General Jeffrey Moore\nArsenal:\n4 Tigercatt\n5 Tigercat\n",
        ),
    )
    assert isinstance(checked, models.ValidationReport) and checked.legal is False
    (unknown,) = checked.unknown
    assert unknown.line == 4 and unknown.name == "Tigercatt" and "Tigercat" in unknown.suggestions
    assert "arsenal.copies" in [v.code for v in checked.errors]
    assert [v.lines for v in checked.errors if v.code == "arsenal.copies"] == [[5]]

    text = sample_list("redline", "standard")
    sections = models.DeckCreateWithSectionsSections.from_dict(
        {
            "general": [{"card": "General Jeffrey Moore", "count": 1}],
            "arsenal": [{"card": "Tigercat", "count": 4}],
        }
    )
    deck = mod("decks", "decks_create").sync(
        client=c,
        body=models.DeckCreateWithSections(
            game=models.GameEnum.REDLINE,
            format_=models.FormatEnum.STANDARD,
            name="Contract",
            sections=sections,
        ),
    )
    assert isinstance(deck, models.DeckDetail), deck
    renamed = mod("decks", "decks_partial_update").sync(
        client=c, id=deck.id, body=models.PatchedDeckUpdateRequest(name="Contract, renamed")
    )
    assert renamed.name == "Contract, renamed"
    version = mod("decks", "decks_versions_create").sync(
        client=c,
        id=deck.id,
        body=models.VersionCreateWithList(based_on=deck.current_version, list_=text),
    )
    assert isinstance(version, models.Version), version
    assert version.number == 2
    # A save based on a version that is no longer the current one: the 409 problem.
    stale = mod("decks", "decks_versions_create").sync_detailed(
        client=c,
        id=deck.id,
        body=models.VersionCreateWithList(based_on=1, list_=text),
    )
    assert stale.status_code == 409
    assert isinstance(stale.parsed, models.Problem), stale.parsed
    assert stale.parsed.current_version == 2

    run = mod("decks", "decks_simulations_create").sync(
        client=c,
        id=deck.id,
        body=models.StartRedlineGoldfish(
            kind=models.StartRedlineGoldfishKind.REDLINE_GOLDFISH,
            params=models.RedlineGoldfishParams(games=2000, turns=8),
            seed=7,
        ),
    )
    assert isinstance(run, models.SimulationRun), run
    retrieve = mod("simulations", "simulations_retrieve")
    deadline = time.monotonic() + 120
    while True:
        state = retrieve.sync(client=c, id=run.id)
        if str(state.status.value) in ("done", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert state.status.value == "done", state.error

    # Each export format is an operation of one media type.
    exported = mod("decks", "decks_export_text_retrieve").sync(client=c, id=deck.id)
    assert isinstance(exported, str) and "Tigercat" in exported
    as_json = mod("decks", "decks_export_json_retrieve").sync(client=c, id=deck.id)
    assert as_json.to_dict()
    markdown = mod("decks", "decks_export_markdown_retrieve").sync(client=c, id=deck.id)
    assert isinstance(markdown, str) and "Tigercat" in markdown
    sheet = mod("decks", "decks_export_sheet_retrieve").sync(client=c, id=deck.id)
    assert sheet.payload.read().startswith(b"%PDF")
    # The old export by ?format= (text, JSON and PDF in one operation) is not in the schema.
    assert not (
        Path(generated.__file__).parent / "api" / "decks" / "decks_export_retrieve.py"
    ).exists()

    # The collection: a CSV of one product and loose cards, the deck marked built, its
    # availability, the card's decks and the wants.
    imported = mod("collection", "collection_import_create").sync(
        client=c,
        body=models.CollectionImportRequest(
            game=models.GameEnum.REDLINE, csv="Count,Name,Edition\n1,,RL1\n2,Tigercat,\n"
        ),
    )
    assert isinstance(imported, models.CollectionImported), imported
    assert (imported.products, imported.cards) == (1, 2)
    built = mod("decks", "decks_partial_update").sync(
        client=c, id=deck.id, body=models.PatchedDeckUpdateRequest(built=True)
    )
    assert built.built is True
    rows = mod("decks", "decks_availability_list").sync(client=c, id=deck.id)
    tigercat = next(r for r in rows if r.card == "Tigercat")
    assert (tigercat.owned, tigercat.needed, tigercat.free, tigercat.short) == (3, 4, 3, 1)
    uses = mod("cards", "cards_decks_retrieve").sync(client=c, id=card.id)
    assert [(d.id, d.count, d.built) for d in uses.decks] == [(deck.id, 4, True)]
    wants = mod("collection", "collection_wants_list").sync(client=c, deck=deck.id)
    assert {w.card: w.missing for w in wants}["Tigercat"] == 1
    # The wants and the collection as files: one operation, one media type each.
    wants_text = mod("collection", "collection_wants_text_retrieve").sync(client=c, deck=deck.id)
    assert isinstance(wants_text, str) and "1 Tigercat" in wants_text
    wants_csv = mod("collection", "collection_wants_csv_retrieve").sync(client=c, deck=deck.id)
    assert isinstance(wants_csv, str) and wants_csv.startswith("Count,Name,Game")
    as_text = mod("collection", "collection_export_text_retrieve").sync(client=c)
    assert isinstance(as_text, str) and "Tigercat" in as_text
    as_csv = mod("collection", "collection_export_retrieve").sync(client=c)
    assert isinstance(as_csv, str) and as_csv.startswith("Count,Name,Edition")
    whole = mod("collection", "collection_whole").sync(client=c)
    assert [p.code for p in whole.products] == ["RL1"]

    index = mod("bulk", "bulk_retrieve").sync(client=c)
    item = next(i for i in index.data if i.game == "redline")
    bulk = mod("games", "games_bulk_retrieve").sync(
        client=c, slug=models.GamesBulkRetrieveSlug(item.game)
    )
    assert bulk.game == "redline" and bulk.cards
    assert json.dumps(bulk.to_dict())

    # The notices of the signed-in user: one written for the deck, listed, marked read.
    from notices.models import Notice
    from notices.services import notices_write

    assert mod("notices", "notices_list").sync(client=c).count == 0
    notices_write(
        [
            Notice(
                owner_id=user.pk,
                deck_id=deck.id,
                kind="verdict",
                key="contract",
                rule_set_code="S2",
                legal=False,
                was_legal=True,
                message="Contract, renamed is no longer legal in Standard under S2.",
            )
        ]
    )
    listed = mod("notices", "notices_list").sync(client=c)
    (notice,) = listed.results
    assert (notice.deck, notice.legal, notice.was_legal, notice.read) == (
        deck.id,
        False,
        True,
        False,
    )
    assert notice.points is None and notice.deck_url.endswith(f"/decks/{deck.id}/")
    assert mod("notices", "notices_read_create").sync(client=c).marked == 1
    assert mod("notices", "notices_list").sync(client=c).results[0].read is True


def test_a_players_community_workflow_through_the_generated_client(
    generated, live_server, live_catalogue, user, other_user
):
    """Publish a deck, find it by its cards, like it, favourite it, comment on it, follow its
    author: each operation of the decklists API through the generated client."""
    from cardsite.tokens import create_token
    from decks.services import deck_create

    sample = sample_list("redline", "standard")
    deck = deck_create(
        owner=user, game_slug="redline", format="standard", name="Shared", text=sample
    )
    deck_create(owner=other_user, game_slug="redline", format="standard", name="Own", text=sample)
    _t, author_secret = create_token(user, name="author", scope="write", expiry_days=None)
    _t, reader_secret = create_token(other_user, name="reader", scope="write", expiry_days=None)
    author = generated.AuthenticatedClient(
        base_url=live_server.url, token=author_secret, timeout=60
    )
    reader = generated.AuthenticatedClient(
        base_url=live_server.url, token=reader_secret, timeout=60
    )
    api = importlib.import_module("cardsite_api_client.api")
    models = importlib.import_module("cardsite_api_client.models")
    mod = lambda group, name: importlib.import_module(f"{api.__name__}.{group}.{name}")  # noqa: E731

    published = mod("decks", "decks_publish_create").sync(
        client=author,
        id=deck.pk,
        body=models.PublishRequest(name="Shared list", description="**fast**"),
    )
    assert isinstance(published, models.DecklistDetail), published
    assert published.likes == 0 and published.published_legal is True
    assert "<strong>fast</strong>" in published.description_html

    card = published.sections.additional_properties["arsenal"][0].card
    found = mod("decklists", "decklists_list").sync(
        client=reader,
        game=models.DecklistsListGame.REDLINE,
        card=[card],
        exclude_card=["Orbital Drop"] if card != "Orbital Drop" else ["Kestrel"],
        legal=models.DecklistsListLegal.TODAY,
        sort=models.DecklistsListSort.POPULAR,
    )
    assert [d.id for d in found.results] == [published.id]

    liked = mod("decklists", "decklists_like_create").sync(client=reader, id=published.id)
    again = mod("decklists", "decklists_like_create").sync(client=reader, id=published.id)
    assert (liked.likes, again.likes) == (1, 1)
    favoured = mod("decklists", "decklists_favourite_create").sync(client=reader, id=published.id)
    assert favoured.favourites == 1
    comment = mod("decklists", "decklists_comments_create").sync(
        client=reader,
        id=published.id,
        body=models.CommentCreateRequest(text=f"Nice, @{user.username}"),
    )
    assert isinstance(comment, models.Comment), comment
    comments = mod("decklists", "decklists_comments_list").sync(client=author, id=published.id)
    assert [c.id for c in comments.results] == [comment.id]
    following = mod("authors", "authors_follow_create").sync(client=reader, name=user.username)
    assert following.following is True and following.followers == 1
    read = mod("decklists", "decklists_retrieve").sync(client=reader, id=published.id)
    assert (read.likes, read.favourites, read.comments, read.liked) == (1, 1, 1, True)
    standing = mod("authors", "authors_retrieve").sync(client=reader, name=user.username)
    assert standing.reputation == 1 + 5 and standing.following is True
    reported = mod("decklists", "decklists_report_create").sync(
        client=reader, id=published.id, body=models.ReportRequest(reason="testing the queue")
    )
    assert reported.created is True


def test_an_anonymous_client_calls_what_is_open_to_anonymous_clients(
    generated, live_server, live_catalogue, user
):
    """A generated `Client` (no credentials) is typed for and answered by every operation
    open to anonymous clients; one that needs a user answers 401."""
    import inspect

    from decks.services import deck_create

    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Open",
        visibility="public",
        text=sample_list("redline", "standard"),
    )
    c = generated.Client(base_url=live_server.url, timeout=60)
    api = importlib.import_module("cardsite_api_client.api")
    models = importlib.import_module("cardsite_api_client.models")
    mod = lambda group, name: importlib.import_module(f"{api.__name__}.{group}.{name}")  # noqa: E731

    open_ones = [
        ("games", "games_list"),
        ("cards", "cards_list"),
        ("decks", "decks_retrieve"),
        ("decks", "decks_export_text_retrieve"),
        ("validate", "validate_create"),
    ]
    for group, name in open_ones:
        annotation = str(inspect.signature(mod(group, name).sync).parameters["client"].annotation)
        assert annotation.endswith(".client.Client"), (name, annotation)

    assert "redline" in [g.slug for g in mod("games", "games_list").sync(client=c)]
    found = mod("cards", "cards_list").sync(
        client=c, game=models.CardsListGame.REDLINE, q="Tigercat"
    )
    assert found.count >= 1
    read = mod("decks", "decks_retrieve").sync(client=c, id=deck.pk)
    assert isinstance(read, models.DeckDetail) and read.name == "Open"
    text = mod("decks", "decks_export_text_retrieve").sync(client=c, id=deck.pk)
    assert isinstance(text, str) and "Tigercat" in text
    checked = mod("validate", "validate_create").sync(
        client=c,
        body=models.ValidateRequestWithList(
            game=models.GameEnum.REDLINE,
            format_=models.FormatEnum.STANDARD,
            list_=sample_list("redline", "standard"),
        ),
    )
    assert isinstance(checked, models.ValidationReport) and checked.legal is True

    notices = mod("notices", "notices_list")
    needs_user = str(inspect.signature(notices.sync).parameters["client"].annotation)
    assert "AuthenticatedClient" in needs_user and ".client.Client" not in needs_user, needs_user
    refused = notices.sync_detailed(client=c)
    assert refused.status_code == 401
