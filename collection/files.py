"""A collection read from what people already have, nothing written: the `N Card Name` text
the deck lists use, or a CSV file with the columns collection sites use (`Count`, `Name`,
`Edition` (an expansion code), `Card Number`; other columns ignored). Names are matched as
a deck list's are. A CSV row with an `Edition` and no `Name` is a whole product ("2 × RL1").
A file may hold several games, as the collection's export writes it: a CSV row's `Game`
column, or a `# Game:` line of the text before the lines that follow it (a game's slug or
name); the lines that name no game are of the game chosen for the import. Every line that
cannot be read is reported, by line; nothing is taken from a file with one."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from cardsite.hostile import nul_line
from catalogue.models import Expansion
from decks.lists import ListInvalid
from decks.lists import line_errors as _line_errors
from decks.lists import lines_read as _read
from validation import decklist
from validation.registry import registry
from validation.types import Deck

#: The largest collection file read (bytes) and its most rows.
MAX_FILE_BYTES = 2_000_000
MAX_FILE_ROWS = 20_000
#: The columns read (lower-cased header -> role); others are ignored.
COLUMNS = {
    "count": "count",
    "name": "name",
    "edition": "edition",
    "card number": "number",
    "game": "game",
}
SECTION = "collection"


@dataclass
class CollectionRead:
    """What a file says the user owns: card name -> copies (loose cards), expansion code ->
    copies (whole products, with the `Expansion` rows), and how many rows it had."""

    cards: dict[str, int] = field(default_factory=dict)
    products: dict[str, int] = field(default_factory=dict)
    expansions: dict[str, Expansion] = field(default_factory=dict)
    rows: int = 0


@dataclass
class CollectionFile:
    """What a file says the user owns, by game (slug -> CollectionRead, the games in the
    order the file names them): the games whose collection the file gives."""

    games: dict[str, CollectionRead] = field(default_factory=dict)

    @property
    def cards(self) -> int:
        return sum(sum(r.cards.values()) for r in self.games.values())

    @property
    def distinct(self) -> int:
        return sum(len(r.cards) for r in self.games.values())

    @property
    def products(self) -> int:
        return sum(sum(r.products.values()) for r in self.games.values())

    @property
    def rows(self) -> int:
        return sum(r.rows for r in self.games.values())


_GAME_LINE = re.compile(r"^\s*#\s*game\s*:\s*(.*?)\s*$", re.IGNORECASE)
_SLUG = re.compile(r"\(([a-z0-9][a-z0-9_-]*)\)$")


def game_named(label: str) -> str | None:
    """The slug of the game a `Game` cell or a `# Game:` line names: its slug, its name, or
    both as a deck list's header writes them ("<name> (<slug>)"); None when it names no
    game."""
    text = " ".join(label.split())
    slug = _SLUG.search(text)
    for game in registry.all():
        if text.lower() in {game.slug, game.name.lower()} or (
            slug is not None and slug.group(1) == game.slug
        ):
            return game.slug
    return None


def _no_game(line_no: int, label: str) -> decklist.LineError:
    shown = label if len(label) <= 40 else label[:40] + "…"
    games = ", ".join(g.slug for g in registry.all())
    return decklist.LineError(line_no, f"Line {line_no}: no game {shown!r} (games: {games})")


def file_text(data: bytes) -> str:
    """An uploaded file as text: UTF-8 (a byte-order mark dropped); anything else (a binary
    file, another encoding, NUL bytes) raises ListInvalid saying so."""
    if len(data) > MAX_FILE_BYTES:
        raise ListInvalid([_whole(_too_large(len(data)))])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ListInvalid(
            [_whole(f"the file is not text (UTF-8): byte {exc.start + 1:,} cannot be read")]
        ) from None
    line = nul_line(text)
    if line is not None:
        raise ListInvalid(
            [
                {
                    "line": line,
                    "message": f"the file contains a NUL character (\\x00) on line {line}; "
                    "a collection file is plain text",
                    "suggestions": [],
                }
            ]
        )
    return text


def _whole(message: str) -> dict:
    return {"line": 0, "message": message, "suggestions": []}


def _too_large(size: int) -> str:
    return f"the file is {size:,} bytes long; at most {MAX_FILE_BYTES:,} bytes are read"


def size_problem(text: str) -> str | None:
    """Why a collection file is too large to be read (None when it is not)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        return _too_large(size)
    rows = text.count("\n") + 1
    if rows > MAX_FILE_ROWS + 1:
        return f"the file has {rows:,} lines; at most {MAX_FILE_ROWS:,} rows are read"
    return None


def _text_lines(text: str, game_slug: str) -> tuple[dict[str, decklist.ParseResult], list]:
    """`N Name` lines by game (a `# Game:` line names the game of the lines after it; before
    one, `game_slug`'s), and the lines that cannot be read. Section headers are allowed and
    ignored (a deck list can be imported into a collection as it is)."""
    by_game: dict[str, decklist.ParseResult] = {}
    errors: list[decklist.LineError] = []
    current: str | None = game_slug
    for line_no, raw in enumerate(text.splitlines(), start=1):
        named = _GAME_LINE.match(raw)
        if named:
            current = game_named(named.group(1))
            if current is None:
                errors.append(_no_game(line_no, named.group(1)))
            continue
        if not raw.strip() or decklist._COMMENT.match(raw):
            continue
        line = decklist._TRAILING_COMMENT.sub("", raw).strip()
        if decklist._HEADER.match(line) or current is None:
            continue
        result = by_game.setdefault(current, decklist.ParseResult())
        # The parser's own card-line reader, so that errors read the same as a deck's.
        error = decklist._card_line(result, line_no, line, SECTION, registry.get(current))
        if error:
            errors.append(error)
    return by_game, errors


def _count(value: str, line_no: int) -> tuple[int | None, decklist.LineError | None]:
    raw = value.strip()
    if not raw:
        return None, decklist.LineError(line_no, f"Line {line_no}: no Count")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > decklist.MAX_DIGITS:
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        return None, decklist.LineError(
            line_no, f"Line {line_no}: Count {shown!r} is not a whole number from 1 to 9,999"
        )
    n = int(raw)
    if not 1 <= n <= decklist.MAX_COUNT:
        return None, decklist.LineError(
            line_no, f"Line {line_no}: Count {n:,} is not a whole number from 1 to 9,999"
        )
    return n, None


def _csv_lines(
    text: str, game_slug: str
) -> tuple[dict[str, decklist.ParseResult], dict[str, list[tuple[int, str, int]]], list]:
    """The card rows as list lines by game (a row's `Game` column, else `game_slug`), the
    product rows by game (line, code, count), and the rows that cannot be read."""
    by_game: dict[str, decklist.ParseResult] = {}
    products: dict[str, list[tuple[int, str, int]]] = {}
    errors: list[decklist.LineError] = []
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise ListInvalid([_whole(f"Line 1: the header cannot be read as CSV ({exc})")]) from None
    if header is None:
        raise ListInvalid([_whole("the file is empty: write a header line, Count,Name")])
    roles = {}
    for i, title in enumerate(header):
        role = COLUMNS.get(title.strip().lower())
        if role and role not in roles:
            roles[role] = i
    missing = [title for title in ("Count", "Name") if title.lower() not in roles]
    if missing:
        found = ", ".join(repr(t.strip()) for t in header if t.strip()) or "none"
        raise ListInvalid(
            [
                {
                    "line": 1,
                    "message": f"Line 1: the header has no {' and no '.join(missing)} "
                    f"column (columns read: Count, Name, Edition, Card Number; found: {found})",
                    "suggestions": [],
                }
            ]
        )

    def cell(row: list[str], role: str) -> str:
        i = roles.get(role)
        return row[i] if i is not None and i < len(row) else ""

    try:
        for row in reader:
            line_no = reader.line_num
            if not any(c.strip() for c in row):
                continue
            n, error = _count(cell(row, "count"), line_no)
            name = " ".join(cell(row, "name").split())
            code = cell(row, "edition").strip()
            label = cell(row, "game").strip()
            game = game_named(label) if label else game_slug
            if error is not None:
                errors.append(error)
            elif game is None:
                errors.append(_no_game(line_no, label))
            elif not name and not code:
                errors.append(
                    decklist.LineError(
                        line_no, f"Line {line_no}: no Name (nor an Edition for a whole product)"
                    )
                )
            elif len(name) > 200 or len(code) > 20:
                errors.append(
                    decklist.LineError(line_no, f"Line {line_no}: the Name or Edition is too long")
                )
            elif not name:
                products.setdefault(game, []).append((line_no, code, n or 0))
                by_game.setdefault(game, decklist.ParseResult())
            else:
                result = by_game.setdefault(game, decklist.ParseResult())
                result.lines.append(decklist.ListLine(line_no, SECTION, n or 0, name, code))
    except csv.Error as exc:
        errors.append(
            decklist.LineError(
                reader.line_num, f"Line {reader.line_num}: cannot be read as CSV ({exc})"
            )
        )
    return by_game, products, errors


def collection_read(*, game_slug: str, text: str = "", csv_text: str = "") -> CollectionFile:
    """Read a collection from list text or CSV text: of `game_slug`, and of the games the
    file names (a CSV row's `Game`, a `# Game:` line). Raises ListInvalid with every line
    that cannot be read (or the size limit), by line. Queries, for each game the file holds:
    the card names (and their nearest names, the expansion codes when a line names one), the
    products' expansions."""
    source = csv_text if csv_text else text
    problem = size_problem(source) if csv_text else decklist.text_size_problem(source)
    if problem:
        raise ListInvalid([_whole(problem)])
    if csv_text:
        parsed, product_rows, errors = _csv_lines(csv_text, game_slug)
    else:
        (parsed, errors), product_rows = _text_lines(text, game_slug), {}
    if not parsed:
        # A file that names no card: the chosen game's collection is the (empty) file.
        parsed = {game_slug: decklist.ParseResult()}
    out = CollectionFile()
    resolved = {}
    for slug, lines in parsed.items():
        read = _read(slug, lines) if lines.lines else decklist.Resolved(Deck({}))
        errors.extend(read.unread)
        resolved[slug] = read
        game_read = out.games[slug] = CollectionRead(
            rows=len(lines.lines) + len(product_rows.get(slug, ()))
        )
        rows = product_rows.get(slug)
        if not rows:
            continue
        codes = {code.lower() for _, code, _ in rows}
        found = {
            e.code.lower(): e
            for e in Expansion.objects.filter(game__slug=slug)
            if e.code.lower() in codes
        }
        for line_no, code, n in rows:
            expansion = found.get(code.lower())
            if expansion is None:
                errors.append(
                    decklist.LineError(
                        line_no,
                        f"Line {line_no}: {registry.get(slug).name} has no expansion {code!r}",
                    )
                )
                continue
            game_read.products[expansion.code] = game_read.products.get(expansion.code, 0) + n
            game_read.expansions[expansion.code] = expansion
    if errors:
        raise ListInvalid(_line_errors(sorted(errors, key=lambda e: e.line)))
    for slug, read in resolved.items():
        cards = out.games[slug].cards
        for entries in read.deck.sections.values():
            for e in entries:
                cards[e.card.name] = cards.get(e.card.name, 0) + e.count
    return out
