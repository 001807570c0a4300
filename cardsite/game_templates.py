"""The template loader of the games' own templates, kept in each game's package.

A template named `games/<slug>/<path>` is read from `<package>/templates/<path>` of the
package that defines game `<slug>` (validation/packages.py): the builder's panel of a game
(`games/<slug>/builder_extra.html`), a tool's answer drawn its own way
(`games/<slug>/tools/<tool>.html`). A game registered later (CARDSITE_GAMES, or for one
test) is found at once. Compiled templates are kept by file, so two games never share one.
"""

from __future__ import annotations

from django.core.exceptions import SuspiciousFileOperation
from django.template import Origin, Template, TemplateDoesNotExist
from django.template.loaders.base import Loader as BaseLoader
from django.utils._os import safe_join

from validation import packages
from validation.registry import registry

PREFIX = "games"


class GameTemplatesLoader(BaseLoader):
    """Finds `games/<slug>/<path>` in the templates folder of game `<slug>`'s package."""

    def __init__(self, engine):
        super().__init__(engine)
        self._compiled: dict[str, Template] = {}

    def get_template_sources(self, template_name):
        prefix, _, rest = template_name.partition("/")
        slug, _, path = rest.partition("/")
        if prefix != PREFIX or not slug or not path or slug not in registry:
            return
        folder = packages.template_dir(slug)
        if folder is None:
            return
        try:
            name = safe_join(str(folder), path)
        except SuspiciousFileOperation:
            return  # a name climbing out of the folder is no template of the game
        yield Origin(name=name, template_name=template_name, loader=self)

    def get_contents(self, origin):
        try:
            with open(origin.name, encoding=self.engine.file_charset) as fp:
                return fp.read()
        except FileNotFoundError:
            raise TemplateDoesNotExist(origin) from None

    def get_template(self, template_name, skip=None):
        tried = []
        for origin in self.get_template_sources(template_name):
            if skip is not None and origin in skip:
                tried.append((origin, "Skipped to avoid recursion"))
                continue
            cached = self._compiled.get(origin.name)
            if cached is not None:
                return cached
            try:
                contents = self.get_contents(origin)
            except TemplateDoesNotExist:
                tried.append((origin, "Source does not exist"))
                continue
            template = Template(contents, origin, origin.template_name, self.engine)
            self._compiled[origin.name] = template
            return template
        raise TemplateDoesNotExist(template_name, tried=tried)

    def reset(self):
        self._compiled.clear()
