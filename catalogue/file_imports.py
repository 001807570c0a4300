"""What the expansion import (`catalogue.importer`) and the rule set import
(`catalogue.rule_set_file`) share: an all-or-nothing report, and the exception a file with
any bad row raises."""

from __future__ import annotations

from typing import Any


class FileImportReport:
    """Base of an import's report (a dataclass with `errors` and `dry_run`): the file
    imports only when it has no error; `counts` says what was, or would be, written."""

    errors: list[Any]
    dry_run: bool

    @property
    def ok(self) -> bool:
        return not self.errors

    def summary(self) -> str:
        if self.errors:
            return f"{len(self.errors)} error(s); nothing was changed."
        return self.counts("would be" if self.dry_run else "were")

    def counts(self, verb: str) -> str:
        raise NotImplementedError


class FileImportFailed(Exception):
    """A file with at least one bad row: nothing was written; `report` names every error."""

    def __init__(self, report: FileImportReport):
        super().__init__(report.summary())
        self.report = report
