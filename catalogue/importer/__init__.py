"""Expansion import and export in the JSON format of the game spec.

An import is all-or-nothing: every row is checked first and every bad row reported (its
index, the field and why); only a file without a single error is written, in one
transaction. Re-importing the same file updates in place and never duplicates.

One module per step: `report` (what an import reports, and the limits of a file),
`checks` (reading and checking a file whole), `writes` (the batched writes),
`importing` (`expansion_import`, the two put together) and `export`.
"""

from .checks import read_expansion_file
from .export import expansion_export
from .importing import expansion_import, pools_without
from .report import (
    BATCH_SIZE,
    CARD_FIELDS,
    PRINTING_FIELDS,
    ImportFailed,
    ImportReport,
    PoolLeftOut,
    RowError,
)
from .writes import Progress, analyze_catalogue

__all__ = [
    "BATCH_SIZE",
    "CARD_FIELDS",
    "PRINTING_FIELDS",
    "ImportFailed",
    "ImportReport",
    "PoolLeftOut",
    "Progress",
    "RowError",
    "analyze_catalogue",
    "expansion_export",
    "expansion_import",
    "pools_without",
    "read_expansion_file",
]
