"""The API's pages: `?page=N` (from 1) and `?page_size=N` (1 to MAX_PAGE_SIZE, 50 by default;
another value answers 400). A page past the end answers 404 (problem details, like every
error)."""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

MAX_PAGE_SIZE = 200


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        try:
            size = int(raw)
        except ValueError:
            size = 0
        if not 1 <= size <= MAX_PAGE_SIZE:
            raise ValidationError(
                {"page_size": [f"page_size must be a whole number from 1 to {MAX_PAGE_SIZE}"]}
            )
        return size

    def paginate_queryset(self, queryset, request, view=None):
        if request.query_params.get(self.page_query_param) == "":
            raise ValidationError({"page": ["page must be a whole number from 1"]})
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view):
        return [
            {
                "name": self.page_query_param,
                "required": False,
                "in": "query",
                "description": "Page number (from 1); a page past the end answers 404.",
                "schema": {"type": "integer", "minimum": 1},
            },
            {
                "name": self.page_size_query_param,
                "required": False,
                "in": "query",
                "description": f"Results per page: 1 to {MAX_PAGE_SIZE} (default 50).",
                "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
            },
        ]
