"""What the expansion import (`catalogue.importer`) and the rule set import
(`catalogue.rule_set_file`) share: an all-or-nothing report, and the exception a file with
any bad row raises."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext


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
            n = len(self.errors)
            return ngettext(
                "%(n)d error; nothing was changed.", "%(n)d errors; nothing was changed.", n
            ) % {"n": n}
        return self.counts()

    def counts(self) -> str:
        """What was written (or, for a dry run, would be), in words."""
        raise NotImplementedError

    def created_words(self, n: int) -> str:
        """What the import makes, in words: "1 was created", "2 would be created"."""
        if self.dry_run:
            return ngettext("%(n)d would be created", "%(n)d would be created", n) % {"n": n}
        return ngettext("%(n)d was created", "%(n)d were created", n) % {"n": n}


class FileImportFailed(Exception):
    """A file with at least one bad row: nothing was written; `report` names every error."""

    def __init__(self, report: FileImportReport):
        super().__init__(report.summary())
        self.report = report
