"""A refused form's problems, summed up at the top of its page (issue 21, finding 7).

On a phone the table's deal page is some 2,700 px tall: a problem shown beside its field
may be far below the fold, behind the talon's card grid. So a refused «Check» or «Save»
(or box report) brings the page back with a summary first: each problem with the name of
its field and a link to it (``templates/scoring/_error_summary.html``), and the first
field focused — by ``autofocus`` without JavaScript, smoothly by ``static/js/table.js``.

A problem's target is the id of the element that takes the focus: a field's own input (the
checked radio of a group, else its first; a ticked card of a talon picker, else its first)
or, for a problem of the whole form, the box that says it. The ids are those the scorer
form's templates give (``scoring/_scorer_form.html``, ``table/_identity.html``,
``scoring/_talon_picker.html``, ``table/_box_report.html``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.utils.translation import gettext_lazy as _

#: The box above the scorer form with the problems of no field (the deal, a stale version).
FORM_ERRORS_ID = "scorer-errors"
#: The scorer form's talon picker and the box report's (their ``group_id``).
TALON_GROUP_ID = "group-talon"
FOUND_GROUP_ID = "found-talon"
REPORT_ID = "box-report"

# The scorer form's fields in the order of its page; the two groups with their seats' fields.
_ORDER = ("declarer", "contract", "trump", "talon", "defenders", "tricks", "auction", "note")
_GROUPS = {
    "defenders": ("defence_fields", _("Defenders' decisions")),
    "tricks": ("tricks_fields", _("Tricks")),
}


@dataclass(frozen=True)
class Problem:
    target: str  # the id of the element to go to
    message: str
    label: str = ""  # the field's name; none for a problem of the whole form


@dataclass(frozen=True)
class Summary:
    problems: list[Problem] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.problems)

    @property
    def fields(self) -> int:
        """How many fields are to be corrected (a field with two problems counts once)."""
        return len({p.target for p in self.problems if p.label})

    @property
    def first(self) -> str:
        """The element that takes the focus: the first problem's."""
        return self.problems[0].target if self.problems else ""


def _texts(errors) -> list[str]:
    return [str(e) for e in errors or ()]


def talon_target(grid, group_id: str) -> str:
    """A talon picker's card box to focus: the first ticked, else the first of the grid."""
    cards = [card for row in grid for card in row["cards"]]
    chosen = next((c for c in cards if c["checked"]), cards[0] if cards else None)
    return f"{group_id}-{chosen['value']}" if chosen else group_id


def _radio_target(bound) -> str:
    widgets = list(bound)
    chosen = next((w for w in widgets if w.data.get("selected")), widgets[0] if widgets else None)
    return chosen.id_for_label if chosen else bound.auto_id


def _target(bound) -> str:
    if isinstance(bound.field.widget, forms.RadioSelect):
        return _radio_target(bound)
    return bound.id_for_label


def scorer_problems(form) -> list[Problem]:
    """The scorer form's problems in the order of its page: those of no field first (they
    are said above the fields), then field by field, a group's seats before the group."""
    if not form.is_bound:
        return []
    shown = {name for name in _ORDER} | {
        b.name for group in _GROUPS.values() for b in getattr(form, group[0])()
    }
    problems = [Problem(FORM_ERRORS_ID, m) for m in _texts(form.non_field_errors())]
    # A hidden field that is no group's (a version, a digest) has nothing to correct.
    for name, errors in form.errors.items():
        if name != "__all__" and name not in shown:
            problems += [Problem(FORM_ERRORS_ID, m) for m in _texts(errors)]
    for name in _ORDER:
        if name not in form.fields and name not in _GROUPS:
            continue  # a field this game's form does not have (the toy has no auction)
        if name in _GROUPS:
            method, legend = _GROUPS[name]
            seats = getattr(form, method)()
            for bound in seats:
                label = f"{legend}, {bound.label}"
                problems += [Problem(_target(bound), m, label) for m in _texts(bound.errors)]
            first = _target(seats[0]) if seats else FORM_ERRORS_ID
            problems += [Problem(first, m, str(legend)) for m in _texts(form.errors.get(name))]
        elif name == "talon":
            target = talon_target(form.talon_grid(), TALON_GROUP_ID)
            label = str(form.fields["talon"].label)
            problems += [Problem(target, m, label) for m in _texts(form.errors.get(name))]
        else:
            bound = form[name]
            problems += [Problem(_target(bound), m, str(bound.label)) for m in _texts(bound.errors)]
    return problems


def identity_problems(*, who: str, pin: str, seats, me, pin_field: bool) -> list[Problem]:
    """Who is entering (``table/_identity.html``): nobody chosen (``who``), or his PIN — or,
    from his own page where no PIN is asked, the round's — refused (``pin``)."""
    problems = []
    seat = me or (seats[0] if seats else None)
    seat_target = f"as-{seat.position}" if seat else "group-identity"
    if who:
        problems.append(Problem(seat_target, who, str(_("Who is entering"))))
    if pin:
        target = "id_pin" if pin_field else seat_target
        problems.append(Problem(target, pin, str(_("PIN") if pin_field else _("Who is entering"))))
    return problems


def report_problems(errors: dict, typed: dict, grid, kinds) -> list[Problem]:
    """A box report refused (``table/_box_report.html``): what differs, the talon found."""
    problems = []
    kind = (typed or {}).get("kind") or (kinds[0][0] if kinds else "")
    for name, messages in (errors or {}).items():
        if name == "kind":
            target, label = f"kind-{kind}", str(_("What differs"))
        elif name == "talon":
            target, label = talon_target(grid, FOUND_GROUP_ID), str(_("The talon found in the box"))
        else:
            target, label = REPORT_ID, ""
        problems += [Problem(target, m, label) for m in _texts(messages)]
    return problems


def mark_autofocus(form, target: str) -> None:
    """Give the scorer form's field ``target`` (an id) the ``autofocus`` attribute; the
    inputs its templates write by hand (the PIN, the seats, the talon's cards) read the
    page's ``autofocus`` themselves."""
    if not target or form is None:
        return
    for bound in form.visible_fields():
        if isinstance(bound.field.widget, forms.RadioSelect):
            # The options are rendered from the bound field's cached subwidgets.
            for option in bound.subwidgets:
                if option.id_for_label == target:
                    option.data["attrs"]["autofocus"] = True
                    return
        elif bound.id_for_label == target:
            bound.field.widget.attrs["autofocus"] = True
            return
