"""A version as a Tabletop Simulator saved object: a deck for each section played as one, the
cards of a section laid out on the table face up in a row, each card's face its image."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from catalogue.image_views import back_image_url, card_image_url
from validation.registry import registry

from .lines import Line, by_section, version_lines

#: Where the objects of a saved deck lie on the table (TTS units: a card is about 2.2 wide).
TTS_DECK_STEP = 3.0
TTS_CARD_STEP = 2.5


def _transform(x: float, z: float, face_down: bool) -> dict[str, float]:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": z,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def as_tts(deck, version, absolute: Callable[[str], str]) -> dict[str, Any]:
    """A Tabletop Simulator saved object: a Deck (face down) for each section played as a
    deck, its cards' DeckIDs (sheet id × 100 + index) listed in order with one Card each in
    ContainedObjects, a section of one card a Card; the cards of a section laid out on the
    table (a leader, units) as Cards face up in a row. Each distinct card is a sheet of its
    own (`NumWidth` = `NumHeight` = 1) whose face is the card's image and whose back is the
    game's; `absolute(path)` makes the images' addresses absolute."""
    slug = deck.game.slug
    back = absolute(back_image_url(slug))
    sheets: dict[str, int] = {}
    custom: dict[str, dict[str, Any]] = {}

    def sheet_of(line: Line) -> int:
        key = line.name.lower()
        if key not in sheets:
            sheets[key] = len(sheets) + 1
            face = absolute(card_image_url(slug, line.card)) if line.card else back
            custom[str(sheets[key])] = {
                "FaceURL": face,
                "BackURL": back,
                "NumWidth": 1,
                "NumHeight": 1,
                "BackIsHidden": True,
                "UniqueBack": False,
                "Type": 0,
            }
        return sheets[key]

    guid_seed = f"{deck.pk}:{version.number}"
    counter = 0

    def guid() -> str:
        nonlocal counter
        counter += 1
        return hashlib.sha1(f"{guid_seed}:{counter}".encode()).hexdigest()[:6]

    def card(line: Line, transform: dict[str, float]) -> dict[str, Any]:
        sheet = sheet_of(line)
        return {
            "GUID": guid(),
            "Name": "Card",
            "Transform": transform,
            "Nickname": line.name,
            "Description": line.label,
            "CardID": sheet * 100,
            "CustomDeck": {str(sheet): custom[str(sheet)]},
            "SidewaysCard": False,
            "Hands": True,
        }

    game = registry.get(slug)
    laid_out = {s.name for s in game.sections if s.laid_out}
    objects: list[dict[str, Any]] = []
    deck_x = 0.0
    row_x = 0.0
    for section, label, lines in by_section(version_lines(deck, version)):
        copies = [line for line in lines for _ in range(line.count)]
        if not copies:
            continue
        if section in laid_out:
            for line in copies:
                objects.append(card(line, _transform(row_x, -4.0, face_down=False)))
                row_x += TTS_CARD_STEP
            continue
        if len(copies) == 1:
            objects.append(card(copies[0], _transform(deck_x, 0.0, face_down=True)))
            deck_x += TTS_DECK_STEP
            continue
        contained = [card(line, _transform(deck_x, 0.0, face_down=True)) for line in copies]
        objects.append(
            {
                "GUID": guid(),
                "Name": "Deck",
                "Transform": _transform(deck_x, 0.0, face_down=True),
                "Nickname": label,
                "Description": f"{deck.name}: {label} ({len(copies)} cards)",
                "DeckIDs": [c["CardID"] for c in contained],
                "CustomDeck": {
                    str(s): custom[str(s)] for s in sorted({c["CardID"] // 100 for c in contained})
                },
                "ContainedObjects": contained,
                "SidewaysCard": False,
                "Hands": False,
            }
        )
        deck_x += TTS_DECK_STEP
    return {
        "SaveName": deck.name,
        "GameMode": game.name,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": f"{deck.name}: {game.name}, version {version.number}",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
