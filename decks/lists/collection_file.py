"""A collection read from what people already have, nothing written: the `N Card Name` text
the deck lists use, or a CSV file with the columns collection sites use (`Count`, `Name`,
`Edition` (an expansion code), `Card Number`; other columns ignored). Names are matched as
a deck list's are. A CSV row with an `Edition` and no `Name` is a whole product ("2 × RL1").
Every line that cannot be read is reported, by line; nothing is taken from a file with one."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from cardsite.hostile import nul_line
from catalogue.models import Expansion
from validation import decklist
from validation.registry import registry
from validation.types import Deck

from .check import _line_errors, _read
from .errors import ListInvalid

#: The largest collection file read (bytes) and its most rows.
MAX_FILE_BYTES = 2_000_000
MAX_FILE_ROWS = 20_000
#: The columns read (lower-cased header -> role); others are ignored.
COLUMNS = {"count": "count", "name": "name", "edition": "edition", "card number": "number"}
SECTION = "collection"


@dataclass
class CollectionRead:
    """What a file says the user owns: card name -> copies (loose cards), expansion code ->
    copies (whole products, with the `Expansion` rows), and how many rows it had."""

    cards: dict[str, int] = field(default_factory=dict)
    products: dict[str, int] = field(default_factory=dict)
    expansions: dict[str, Expansion] = field(default_factory=dict)
    rows: int = 0


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


def _text_lines(text: str, game) -> decklist.ParseResult:
    """`N Name` lines; section headers are allowed and ignored (a deck list can be imported
    into a collection as it is)."""
    result = decklist.ParseResult()
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or decklist._COMMENT.match(raw):
            continue
        line = decklist._TRAILING_COMMENT.sub("", raw).strip()
        if decklist._HEADER.match(line):
            continue
        # The parser's own card-line reader, so that errors read the same as a deck's.
        error = decklist._card_line(result, line_no, line, SECTION, game)
        if error:
            result.errors.append(error)
    return result


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


def _csv_lines(text: str) -> tuple[decklist.ParseResult, list[tuple[int, str, int]]]:
    """The card rows as list lines, and the product rows (line, code, count)."""
    result = decklist.ParseResult()
    products: list[tuple[int, str, int]] = []
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
            if error is not None:
                result.errors.append(error)
            elif not name and not code:
                result.errors.append(
                    decklist.LineError(
                        line_no, f"Line {line_no}: no Name (nor an Edition for a whole product)"
                    )
                )
            elif len(name) > 200 or len(code) > 20:
                result.errors.append(
                    decklist.LineError(line_no, f"Line {line_no}: the Name or Edition is too long")
                )
            elif not name:
                products.append((line_no, code, n or 0))
            else:
                result.lines.append(decklist.ListLine(line_no, SECTION, n or 0, name, code))
    except csv.Error as exc:
        result.errors.append(
            decklist.LineError(
                reader.line_num, f"Line {reader.line_num}: cannot be read as CSV ({exc})"
            )
        )
    return result, products


def collection_read(*, game_slug: str, text: str = "", csv_text: str = "") -> CollectionRead:
    """Read a collection of one game from list text or CSV text. Raises ListInvalid with
    every line that cannot be read (or the size limit), by line. Queries: the card names
    (and their nearest names, the expansion codes when a line names one), the products'
    expansions."""
    game = registry.get(game_slug)
    source = csv_text if csv_text else text
    problem = size_problem(source) if csv_text else decklist.text_size_problem(source)
    if problem:
        raise ListInvalid([_whole(problem)])
    if csv_text:
        parsed, product_rows = _csv_lines(csv_text)
    else:
        parsed, product_rows = _text_lines(text, game), []
    read = _read(game_slug, parsed) if parsed.lines else decklist.Resolved(Deck({}))
    errors = [*parsed.errors, *read.unread]
    out = CollectionRead(rows=len(parsed.lines) + len(product_rows))
    if product_rows:
        codes = {code.lower() for _, code, _ in product_rows}
        found = {
            e.code.lower(): e
            for e in Expansion.objects.filter(game__slug=game_slug)
            if e.code.lower() in codes
        }
        for line_no, code, n in product_rows:
            expansion = found.get(code.lower())
            if expansion is None:
                errors.append(
                    decklist.LineError(
                        line_no, f"Line {line_no}: {game.name} has no expansion {code!r}"
                    )
                )
                continue
            out.products[expansion.code] = out.products.get(expansion.code, 0) + n
            out.expansions[expansion.code] = expansion
    if errors:
        raise ListInvalid(_line_errors(sorted(errors, key=lambda e: e.line)))
    for entries in read.deck.sections.values():
        for e in entries:
            out.cards[e.card.name] = out.cards.get(e.card.name, 0) + e.count
    return out
