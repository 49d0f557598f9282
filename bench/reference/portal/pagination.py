from rest_framework.exceptions import ValidationError
from rest_framework.pagination import BasePagination
from rest_framework.response import Response

MAX_PAGE_LIMIT = 999


class PageLimitPagination(BasePagination):
    """Portolan's `?page=&limit=` with {count, next, previous, results}, next and previous as page numbers."""

    default_limit = 10

    def paginate_queryset(self, queryset, request, view=None):
        self.page = self._number(request, "page", 1, None)
        self.limit = self._number(request, "limit", self.default_limit, MAX_PAGE_LIMIT)
        self.count = queryset.count()
        offset = (self.page - 1) * self.limit
        return list(queryset[offset : offset + self.limit])

    def get_paginated_response(self, data):
        return Response(
            {
                "count": self.count,
                "next": self.page + 1 if self.page * self.limit < self.count else None,
                "previous": self.page - 1 if self.page > 1 else None,
                "results": data,
            }
        )

    @staticmethod
    def _number(request, name, default, maximum):
        raw = request.query_params.get(name)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise ValidationError({name: "A whole number is required."})
        if value < 1 or (maximum is not None and value > maximum):
            raise ValidationError({name: f"Must be between 1 and {maximum or 'any'}."})
        return value
