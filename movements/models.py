"""Stored movement schemes: the seed's built-in ones (fixture) and directors' own."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from movements.schemes import validate_scheme

#: What each built-in scheme is, in the reader's language: the fixture's ``name`` is the
#: Russian one (the command line prints it); the pages show these.
BUILTIN_NAMES = {
    8: _("8 participants: 2 tables, one set for both tables"),
    9: _("9 participants: 2 tables and a pause, one set for both tables"),
    12: _("12 participants: 3 tables, each table with its own set"),
    13: _(
        "13 participants: 3 tables and a pause; table 1 on its own, tables 2 and 3 share one set"
    ),
    16: _("16 participants: two groups of 8 (tables 1–2 and 3–4)"),
    18: _("18 participants: two groups of 9 (tables 1–2 and 3–4)"),
    24: _("24 participants: two groups of 12 (tables 1–3 and 4–6), sets 1+4, 2+5, 3+6"),
}


def builtin_title(participants: int, name: str = "") -> str:
    """A built-in scheme's name in the reader's language (``name``, the fixture's, for a
    count the catalogue does not know)."""
    found = BUILTIN_NAMES.get(participants)
    return str(found) if found is not None else name or f"{participants}"


class Scheme(models.Model):
    """A special movement scheme: routes of seats per group, fixed seats, shared sets.

    ``data`` holds ``{"groups": [{"route": [...], "fixed": {...}}], "set_groups": [...]}``
    in the shape :mod:`movements.schemes` reads (see ``fixtures/schemes.json``).
    """

    participants = models.PositiveSmallIntegerField(_("participants"))
    name = models.CharField(_("name"), max_length=200)
    data = models.JSONField(_("routes and sets"))
    builtin = models.BooleanField(_("built-in"), default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="movement_schemes",
        help_text=_("Empty for the built-in schemes."),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("movement scheme")
        verbose_name_plural = _("movement schemes")
        ordering = ("participants", "name")
        constraints = [
            models.UniqueConstraint(
                fields=["participants"],
                condition=models.Q(builtin=True),
                name="movements_one_builtin_scheme_per_count",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.participants}"

    def as_scheme(self) -> dict:
        """The plain dict the pure engine and validator take."""
        data = self.data if isinstance(self.data, dict) else {}
        return {
            "participants": self.participants,
            "name": self.name,
            "groups": data.get("groups"),
            "set_groups": data.get("set_groups"),
        }

    def clean(self) -> None:
        super().clean()
        errors = validate_scheme(self.as_scheme())
        if errors:
            raise ValidationError(
                {"data": [ValidationError(e.message, code=e.code) for e in errors]}
            )
        if self.builtin and self.owner_id is not None:
            raise ValidationError({"owner": _("A built-in scheme has no owner.")})
