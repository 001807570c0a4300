"""Catalogue admin: cards with typed attribute fields, printings inline, expansion import
with a preview, and export."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, path, reverse
from django.utils.html import format_html, format_html_join

from cardsite import jobs

from . import rulesets
from .file_imports import FileImportFailed
from .forms import (
    CardAdminForm,
    ExpansionAdminForm,
    ExpansionImportForm,
    PrintingAdminForm,
    RuleSetAdminForm,
    RuleSetCardForm,
    RuleSetCardFormSet,
    RuleSetImportForm,
)
from .import_jobs import ADMIN_INLINE_ROWS, import_job_start
from .importer import expansion_export, expansion_import
from .models import (
    Card,
    Expansion,
    Game,
    ImportJob,
    Printing,
    RuleSet,
    RuleSetCard,
    collector_order,
)
from .rule_set_file import rule_set_export, rule_set_import
from .services import catalogue_changed, catalogue_files_changed


class RebuildsBulkFiles:
    """A model admin of what the bulk files hold (cards, printings, expansions): a save that
    writes, a delete and a delete of the selected rows each call `catalogue_files_changed`,
    so the files are rebuilt on their next download."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)  # type: ignore[misc]  # a model admin's
        if not change or form.changes_anything():
            catalogue_files_changed()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)  # type: ignore[misc]  # a model admin's
        catalogue_files_changed()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)  # type: ignore[misc]  # a model admin's
        catalogue_files_changed()


class SavesOnlyChanges:
    """A model admin whose untouched save writes nothing: the object is saved only when the
    form changes one of its stored values (`KeepsWhatItShows.changes_anything`), and an
    inline's rows only when they change (Django's formsets save only changed rows)."""

    def save_model(self, request, obj, form, change):
        if change and not form.changes_anything():
            return
        super().save_model(request, obj, form, change)  # type: ignore[misc]  # a model admin's

    @staticmethod
    def anything_changed(form, formsets) -> bool:
        """After `save_related`: whether the object or any inline row changed."""
        if form.changes_anything():
            return True
        for formset in formsets:
            if formset.new_objects or formset.deleted_objects:
                return True
            if any(f.changes_anything() for f in formset.initial_forms if f.instance.pk):
                return True
        return False


class PrintingInline(admin.StackedInline):
    """A card's printings, one block each: a row of its seven fields is wider than the page."""

    model = Printing
    form = PrintingAdminForm
    extra = 0
    autocomplete_fields = ["expansion"]


def json_download(docs: list[dict], filename: str) -> HttpResponse:
    """The exported documents as a JSON file to save: one document alone, several as a list."""
    body = json.dumps(docs[0] if len(docs) == 1 else docs, indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class FileImportAdmin(admin.ModelAdmin):
    """A model admin with a file import at `import/`: upload → preview (a dry run: what
    would change, or every bad row) → confirm, which imports the file kept in the session.
    Only a user who may add the model sees it. A subclass names the upload form, the page
    title and the session key, and runs the import (`run_import`); its page is the
    template `admin/<app>/<model>/import.html`."""

    import_form: type
    import_title: str
    import_session_key: str

    def run_import(self, data, *, dry_run: bool = False):
        """Import `data` (with `dry_run`, write nothing) and return the report; a file with
        any bad row raises FileImportFailed."""
        raise NotImplementedError

    def imported_message(self, report) -> str:
        """What the admin reads once the file is in, with each format whose rule set in force
        (or upcoming) leaves the expansion out of its pool, linked to its edit page."""
        if not report.left_out:
            return report.summary()
        return format_html(
            "{} Not in a format's pool: {}",
            report.summary(),
            format_html_join(
                " ",
                '{} <a href="{}">Edit {}</a>.',
                (
                    (
                        text,
                        reverse("admin:catalogue_ruleset_change", args=[entry.rule_set_id]),
                        entry.code,
                    )
                    for entry, text in report.left_out_items
                ),
            ),
        )

    def import_elsewhere(self, request, data):
        """A response that takes the confirmed import elsewhere, or None to import it now."""
        return None

    def _import_name(self, what: str) -> str:
        return f"{self.model._meta.app_label}_{self.model._meta.model_name}_{what}"

    def import_urls(self):
        view = self.admin_site.admin_view(self.import_view)
        return [path("import/", view, name=self._import_name("import"))]

    def get_urls(self):
        return self.import_urls() + super().get_urls()

    def import_view(self, request):
        opts = self.model._meta
        if not request.user.has_perm(f"{opts.app_label}.add_{opts.model_name}"):
            return redirect("admin:index")
        here = f"admin:{self._import_name('import')}"
        template = f"admin/{opts.app_label}/{opts.model_name}/import.html"
        context = {
            **self.admin_site.each_context(request),
            "opts": opts,
            "title": self.import_title,
        }
        if request.method == "POST" and "confirm" in request.POST:
            data = request.session.pop(self.import_session_key, None)
            if data is None:
                messages.error(request, "The preview expired; upload the file again.")
                return redirect(here)
            elsewhere = self.import_elsewhere(request, data)
            if elsewhere is not None:
                return elsewhere
            try:
                report = self.run_import(data)
            except FileImportFailed as exc:
                context.update(form=self.import_form(), report=exc.report)
                return render(request, template, context)
            messages.success(request, self.imported_message(report))
            return redirect(f"admin:{self._import_name('changelist')}")
        form = self.import_form(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data["file"]
            try:
                report = self.run_import(data, dry_run=True)
            except FileImportFailed as exc:
                report = exc.report
            else:
                request.session[self.import_session_key] = data
            context["report"] = report
        context["form"] = form
        return render(request, template, context)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "position")
    readonly_fields = ("slug",)
    search_fields = ("name", "slug")


@admin.register(Expansion)
class ExpansionAdmin(RebuildsBulkFiles, SavesOnlyChanges, FileImportAdmin):
    """Expansions: a file import with a preview (a large file imported by a worker, its
    progress on a page of its own), and export."""

    import_form = ExpansionImportForm
    import_title = "Import an expansion"
    import_session_key = "expansion_import"
    form = ExpansionAdminForm
    list_display = ("code", "name", "game", "released", "sample", "card_count")
    list_filter = ("game", "sample")
    search_fields = ("code", "name")
    readonly_fields = ("cards_by_number",)
    actions = ["export_json"]
    change_list_template = "admin/catalogue/expansion/change_list.html"

    #: The cards an expansion's page lists; the rest are in the printings' list.
    CARDS_SHOWN = 100

    @admin.display(description="Cards, by collector number")
    def cards_by_number(self, obj):
        if obj is None or obj.pk is None:
            return "Save the expansion to see its cards here."
        rows = list(
            obj.printings.select_related("card")
            .order_by(*collector_order(), "card__name")
            .values_list("number", "card__name", "card_id")[: self.CARDS_SHOWN + 1]
        )
        if not rows:
            return "No cards yet."
        everything = reverse("admin:catalogue_printing_changelist")
        more = ""
        if len(rows) > self.CARDS_SHOWN:
            more = format_html(
                '<p><a href="{}?expansion__id__exact={}">Every printing of {}</a></p>',
                everything,
                obj.pk,
                obj.code,
            )
        body = format_html_join(
            "",
            '<tr><td>{}</td><td><a href="{}">{}</a></td></tr>',
            (
                (number, reverse("admin:catalogue_card_change", args=[card_id]), name)
                for number, name, card_id in rows[: self.CARDS_SHOWN]
            ),
        )
        return format_html(
            '<table class="collector-list"><thead><tr><th>#</th><th>Card</th></tr></thead>'
            "<tbody>{}</tbody></table>{}",
            body,
            more,
        )

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("game")
            .annotate(n_cards=Count("printings"))
        )

    @admin.display(description="cards", ordering="n_cards")
    def card_count(self, obj):
        return obj.n_cards

    @admin.action(description="Export the selected expansions as JSON")
    def export_json(self, request, queryset):
        docs = [expansion_export(game_slug=e.game.slug, code=e.code) for e in queryset]
        name = f"{docs[0]['game']}-{docs[0]['code']}.json" if len(docs) == 1 else "expansions.json"
        return json_download(docs, name)

    def import_urls(self):
        return [
            *super().import_urls(),
            path(
                "import/<int:job>/",
                self.admin_site.admin_view(self.import_progress_view),
                name="catalogue_expansion_import_progress",
            ),
        ]

    def import_progress_view(self, request, job: int):
        """A large import's progress (the job's, cardsite.jobs.Progress); the page follows it
        every second until the import is done or failed."""
        if not request.user.has_perm("catalogue.add_expansion"):
            return redirect("admin:index")
        found = ImportJob.objects.defer("document").filter(pk=job).first()
        if found is None:
            messages.error(request, "No such import.")
            return redirect("admin:catalogue_expansion_import")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Importing an expansion",
            "job": found,
            "progress": jobs.progress(found),
        }
        return render(request, "admin/catalogue/expansion/import_progress.html", context)

    def run_import(self, data, *, dry_run: bool = False):
        return expansion_import(data=data, dry_run=dry_run)

    def import_elsewhere(self, request, data):
        """A large file is imported by a worker; its progress page follows it."""
        if len(data.get("cards") or []) > ADMIN_INLINE_ROWS:
            return redirect(
                "admin:catalogue_expansion_import_progress",
                import_job_start(data=data, user=request.user),
            )
        return None


@admin.register(Card)
class CardAdmin(RebuildsBulkFiles, SavesOnlyChanges, admin.ModelAdmin):
    form = CardAdminForm
    inlines = [PrintingInline]
    list_display = ("name", "game", "kind", "faction", "cost", "view_on_site_link")
    list_filter = ("game", "kind", "faction", "printings__expansion")
    search_fields = ("name", "text")
    list_select_related = ("game",)
    list_per_page = 50
    change_form_template = "admin/catalogue/card/change_form.html"

    @admin.display(description="page")
    def view_on_site_link(self, obj):
        return format_html('<a href="{}">view</a>', obj.get_absolute_url())

    def get_fieldsets(self, request, obj=None):
        form = self.get_form(request, obj)(
            initial=self.get_changeform_initial_data(request), instance=obj
        )
        base: list[tuple[str | None, dict[str, Any]]] = [
            (None, {"fields": ["game", "name", "kind", "faction", "cost", "text"]})
        ]
        attr_fields = form.attribute_field_names()
        if attr_fields:
            base.append(("Attributes of this kind", {"fields": attr_fields}))
        elif obj is None:
            base.append(
                (
                    "Attributes",
                    {
                        "fields": [],
                        "description": "Choose the game and the kind: the form then shows that kind's attributes.",
                    },
                )
            )
        return base

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["fields"] = ["game", "name", "kind", "faction", "cost", "text"]
        return super().get_form(request, obj, change=change, **kwargs)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change or self.anything_changed(form, formsets):
            catalogue_changed(game_slug=form.instance.game.slug)

    def delete_model(self, request, obj):
        slug = obj.game.slug
        super().delete_model(request, obj)
        catalogue_changed(game_slug=slug)

    def get_urls(self):
        return super().get_urls()


@admin.register(Printing)
class PrintingAdmin(RebuildsBulkFiles, SavesOnlyChanges, admin.ModelAdmin):
    form = PrintingAdminForm
    list_display = ("card", "expansion", "number", "rarity")
    list_filter = ("expansion__game", "expansion", "rarity")
    search_fields = ("card__name", "number", "artist")
    list_select_related = ("card", "expansion")
    autocomplete_fields = ["card", "expansion"]
    #: An expansion's printings by collector number (2 before 10).
    ordering = ["expansion__game__position", "expansion__released", "expansion__code"] + (
        collector_order()
    )

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["fields"] = ["card", "expansion", "number", "rarity", "image", "flavour", "artist"]
        return super().get_form(request, obj, change=change, **kwargs)


class RuleSetCardInline(admin.TabularInline):
    model = RuleSetCard
    form = RuleSetCardForm
    formset = RuleSetCardFormSet
    extra = 1
    autocomplete_fields = ["card"]
    verbose_name = "card entry"
    verbose_name_plural = "card entries (banned, limit, cost, errata)"


@admin.register(RuleSet)
class RuleSetAdmin(SavesOnlyChanges, FileImportAdmin):
    """A format's rule sets: typed card entries inline (each card checked to be the game's),
    what the rule set changes against the one before shown on its page, a file import with
    a preview, and export."""

    import_form = RuleSetImportForm
    import_title = "Import a rule set file"
    import_session_key = "rule_set_import"
    form = RuleSetAdminForm
    inlines = [RuleSetCardInline]
    list_display = ("code", "name", "game", "format_shown", "announced", "effective", "sample")
    list_filter = ("game", "format", "sample")
    search_fields = ("code", "name", "note")
    list_select_related = ("game",)
    filter_horizontal = ("expansions",)
    readonly_fields = ("what_changes",)
    actions = ["export_json"]
    change_list_template = "admin/catalogue/ruleset/change_list.html"

    def imported_message(self, report) -> str:
        said = report.summary()
        if not any(p.created or p.changes for p in report.plans):
            return said
        try:
            jobs = reverse("admin:decks_recheckjob_changelist")
        except NoReverseMatch:
            return said
        return format_html(
            "{} The saved decks that follow these formats are being re-checked: "
            '<a href="{}">follow the re-check</a>.',
            said,
            jobs,
        )

    @admin.display(description="Format", ordering="format")
    def format_shown(self, obj):
        return obj.format_name

    @admin.display(description="What it changes against the rule set before")
    def what_changes(self, obj):
        if obj is None or obj.pk is None:
            return "Save the rule set to see what it changes."
        found = rulesets.changes(obj)
        if not found:
            return "Nothing: the same pool, bans, limits, costs and errata."
        return format_html(
            "<ul class='rule-set-changes'>{}</ul>",
            format_html_join("", "<li>{}</li>", ((c.text,) for c in found)),
        )

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change or self.anything_changed(form, formsets):
            rulesets.rule_set_changed(form.instance)

    def delete_model(self, request, obj):
        rulesets.rule_set_delete(rule_set=obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for obj in queryset.select_related("game"):
                rulesets.rule_set_delete(rule_set=obj)

    @admin.action(description="Export the selected rule sets as JSON")
    def export_json(self, request, queryset):
        docs = [
            rule_set_export(game_slug=r.game.slug, format=r.format, code=r.code)
            for r in queryset.select_related("game")
        ]
        one = docs[0] if len(docs) == 1 else None
        name = f"{one['game']}-{one['format']}-{one['code']}.json" if one else "rule-sets.json"
        return json_download(docs, name)

    def run_import(self, data, *, dry_run: bool = False):
        return rule_set_import(data=data, dry_run=dry_run)


def import_url() -> str:
    return reverse("admin:catalogue_expansion_import")
