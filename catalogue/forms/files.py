"""The admin's upload forms of expansion and rule set files."""

from __future__ import annotations

import json

from django import forms


class ExpansionImportForm(forms.Form):
    file = forms.FileField(help_text="An expansion file in the JSON format of the documentation.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 20 * 1024 * 1024:
            raise forms.ValidationError("the file is larger than 20 MB")
        try:
            return json.loads(upload.read().decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise forms.ValidationError("the file is not UTF-8 text") from exc
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from exc
        except ValueError as exc:  # a number of more than 4,300 digits
            raise forms.ValidationError(f"not valid JSON: {exc}") from exc
        except RecursionError as exc:
            raise forms.ValidationError("not valid JSON: nested too deeply") from exc


class RuleSetImportForm(ExpansionImportForm):
    file = forms.FileField(
        help_text="A rule set file (one rule set or a list) in the JSON format of the "
        "documentation."
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 5 * 1024 * 1024:
            raise forms.ValidationError("the file is larger than 5 MB")
        return super().clean_file()
