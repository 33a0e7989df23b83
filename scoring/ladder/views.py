"""The club ladder's pages (docs/ladder.md «The ladder in the app»): the director's settings
(/director/ladder/, login, his own ladder), the public ladder (/ladder/<slug>/) and a
person's page on it (/ladder/<slug>/<person>/).

The public pages read the last replay's rows (scoring.ladder.services writes them) and are served
from the cache: the rendered content is kept under a key of the ladder's replay, its
settings, the register and the events it reads, the filters, the language and the day
(a status «inactive» moves with the date), so a replay, an edit or a new day is a new key
and nothing stale is ever shown. Only the content is kept, never the page around it (a
director's name, a form's token or a message belong to one reader)."""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count, F, Max
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import npgettext, pgettext_lazy
from django.views.decorators.http import require_POST

from events.models import Event, Person
from scoring import ladder as core
from scoring.ladder import services as ladders
from scoring.ladder.chart import chart
from scoring.ladder.forms import LadderFilterForm, LadderForm
from scoring.models import Ladder, LadderGrade, LadderRow
from scoring.standings import public_cache
from scoring.templatetags.ladder_tags import signed

#: How long a rendered page is kept (its key changes with every change anyway).
CACHE_SECONDS = 600

STATUS_WORDS = {
    core.PROVISIONAL: pgettext_lazy("ladder status", "provisional"),
    core.REGULAR: "",  # between provisional and established: no mark (docs/ladder.md)
    core.ESTABLISHED: pgettext_lazy("ladder status", "established"),
    core.INACTIVE: pgettext_lazy("ladder status", "inactive"),
}


# --- the director's settings --------------------------------------------------------------


@login_required
def ladder_settings(request):
    """Open the club's ladder, or edit it; its state and «Пересчитать сейчас»."""
    ladder = Ladder.objects.filter(owner=request.user).first()
    form = LadderForm(request.POST or None, instance=ladder)
    if request.method == "POST" and form.is_valid():
        created = ladder is None
        changed = created or form.parameters_changed()
        if created:
            form.instance.owner = request.user
        ladder = form.save()
        if changed:
            ladders.ladder_touch(request.user.pk)  # replayed by the worker (or after this)
        messages.success(
            request,
            _("The ladder is open.")
            if created
            else (
                _("Settings saved: the ladder will be recomputed.")
                if changed
                else _("Settings saved.")
            ),
        )
        return redirect("director:ladder")
    if ladder is not None:
        ladder.refresh_from_db()  # the form may have changed the instance's fields
    return render(
        request,
        "director/ladder.html",
        {"form": form, "ladder": ladder},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def ladder_recompute_now(request):
    """Replay the ladder now, in this request (the same function as the worker's). A replay
    from scratch is deterministic: asked of a ladder already up to date, it writes the same."""
    ladder = get_object_or_404(Ladder, owner=request.user)
    Ladder.objects.filter(pk=ladder.pk).update(wanted=F("wanted") + 1)
    ladders.ladder_recompute(ladder.pk)
    grades = LadderGrade.objects.filter(ladder=ladder).count()
    sessions = LadderRow.objects.filter(ladder=ladder).values("session_id").distinct().count()
    messages.success(
        request,
        _("The ladder is recomputed. Graded players: %(persons)s, rated sessions: %(sessions)s.")
        % {"persons": grades, "sessions": sessions},
    )
    return redirect("director:ladder")


# --- the public pages: the cache ----------------------------------------------------------


def _ladder(slug: str) -> Ladder:
    return get_object_or_404(Ladder, slug=slug)


def _stamp(ladder: Ladder) -> str:
    """What the pages read besides the rows, as a few figures: the register's persons (a
    name, a club, «hidden») and the owner's events (a publication of a points event)."""
    persons = Person.objects.filter(owner_id=ladder.owner_id).aggregate(
        n=Count("pk"), at=Max("updated_at")
    )
    events = Event.objects.filter(owner_id=ladder.owner_id).aggregate(
        n=Count("pk"), at=Max("updated_at")
    )
    return f"{persons['n']}:{persons['at']}:{events['n']}:{events['at']}"


def _key(kind: str, ladder: Ladder, *parts) -> str:
    settings = (
        ladder.name,
        ladder.slug,
        *(getattr(ladder, name) for name in ("k", "k_provisional", "start")),
        ladder.provisional_deals,
        ladder.min_deals,
        ladder.min_tables,
        ladder.built,
        ladder.wanted,
        ladder.built_at,
    )
    text = repr((settings, _stamp(ladder), translation.get_language(), timezone.localdate(), parts))
    return f"ladder-{kind}:{ladder.pk}:{hashlib.sha256(text.encode()).hexdigest()[:32]}"


def _cached(request, key: str, build, title: str):
    """The page around its content, the content from the cache or ``build()`` (which
    returns the content and whether it may be kept: a refused filter is not). An anonymous
    reader's whole answer is the shared copy of ``key`` (``scoring.standings.public_cache``): an ETag,
    a 304 to a tab that has it, no cookie."""

    def draw():
        content = cache.get(key)
        if content is None:
            content, keep = build()
            if keep:
                cache.set(key, content, CACHE_SECONDS)
        return render(request, "ladder/page.html", {"content": mark_safe(content), "title": title})

    if public_cache.shared(request):
        return public_cache.serve(request, key, draw)
    return draw()


# --- the public ladder --------------------------------------------------------------------


def _graded(ladder: Ladder):
    """The ladder's graded persons the public may see: not hidden, not merged into another
    (a merged person has no rows after the next replay)."""
    return LadderGrade.objects.filter(
        ladder=ladder, person__hidden=False, person__merged_into__isnull=True
    ).select_related("person")


def _status(ladder, deals, last_rated, on) -> str:
    return core.status(deals, last_rated, on, ladders.params_of(ladder))


def _ranked(lines: list[dict]) -> list[dict]:
    """Places by grade, highest first; equal grades share a place."""
    lines.sort(key=lambda line: (-line["grade"], line["person"].full_name, line["person"].pk))
    previous = None
    for i, line in enumerate(lines, start=1):
        if previous is None or line["grade"] != previous["grade"]:
            line["rank"] = i
        else:
            line["rank"] = previous["rank"]
        previous = line
    return lines


def _lines_now(ladder: Ladder, today: datetime.date) -> list[dict]:
    lines = []
    for grade in _graded(ladder):
        state = _status(ladder, grade.deals, grade.last_rated, today)
        lines.append(
            {
                "person": grade.person,
                "grade": grade.grade,
                "deals": grade.deals,
                "sessions": grade.sessions,
                "change": grade.change,
                "last_rated": grade.last_rated,
                "status": state,
            }
        )
    return lines


def _lines_season(ladder: Ladder, year: int) -> list[dict]:
    """Each person rated in ``year`` as he stood after his last rated session of it: that
    row's grade after and change, his rated deals up to it (all years), his status on the
    year's last day."""
    persons = {g.person_id: g.person for g in _graded(ladder)}
    deals: dict[int, int] = defaultdict(int)
    sessions: dict[int, int] = defaultdict(int)
    last: dict[int, LadderRow] = {}
    rows = LadderRow.objects.filter(
        ladder=ladder, date__lte=datetime.date(year, 12, 31), person_id__in=list(persons)
    ).order_by("order")
    for row in rows.only("person_id", "deals", "before", "after", "date", "order"):
        deals[row.person_id] += row.deals
        sessions[row.person_id] += 1
        if row.date.year == year:
            last[row.person_id] = (row, deals[row.person_id], sessions[row.person_id])
    end = datetime.date(year, 12, 31)
    lines = []
    for person_id, (row, dealt, count) in last.items():
        lines.append(
            {
                "person": persons[person_id],
                "grade": row.after,
                "deals": dealt,
                "sessions": count,
                "change": row.after - row.before,
                "last_rated": row.date,
                "status": _status(ladder, dealt, row.date, end),
            }
        )
    return lines


def _events(ladder: Ladder) -> list[dict]:
    """The owner's published events, each with whether the ladder counts it and why not."""
    rated = set(
        LadderRow.objects.filter(ladder=ladder).values_list("session_id", flat=True).distinct()
    )
    over = set(ladders.published_sessions(ladder.owner_id).values_list("pk", flat=True))
    found = []
    events = (
        Event.objects.filter(owner_id=ladder.owner_id, results_public=True)
        .prefetch_related("sessions")
        .order_by("-date", "-pk")
    )
    for event in events:
        sessions = [s.pk for s in event.sessions.all()]
        counted = [pk for pk in sessions if pk in rated]
        if event.scoring_method != Event.ScoringMethod.MATCHPOINTS:
            note = _("not rated: a points event")
        elif counted and len(counted) == len(sessions):
            note = ""
        elif counted:
            note = _("%(rated)s of %(sessions)s sessions rated") % {
                "rated": len(counted),
                "sessions": len(sessions),
            }
        elif any(pk not in over for pk in sessions):
            note = _("not rated yet: a session is still being played")
        else:
            # Each count in its own plural form: «от 1 сдачи», «от 5 сдач», «4 столов».
            note = _(
                "not rated: no session had %(tables)s and two players of the register with "
                "%(deals)s"
            ) % {
                "tables": npgettext("ladder rule", "%(n)d table", "%(n)d tables", ladder.min_tables)
                % {"n": ladder.min_tables},
                "deals": npgettext(
                    "ladder rule", "%(n)d deal or more", "%(n)d deals or more", ladder.min_deals
                )
                % {"n": ladder.min_deals},
            }
        found.append({"event": event, "counted": bool(counted), "note": note})
    return found


def ladder_page(request, slug):
    """The public ladder: every graded person the public may see, ranked by grade."""
    ladder = _ladder(slug)
    filters = (
        request.GET.get("club", "")[:200],
        request.GET.get("season", "")[:10],
        request.GET.get("inactive") == "1",
    )
    key = _key("page", ladder, filters)
    return _cached(request, key, lambda: _ladder_content(request, ladder), ladder.name)


def _ladder_content(request, ladder: Ladder) -> tuple[str, bool]:
    today = timezone.localdate()
    now = _lines_now(ladder, today)
    seasons = sorted(
        {d.year for d in LadderRow.objects.filter(ladder=ladder).dates("date", "year")},
        reverse=True,
    )
    clubs = sorted({line["person"].club for line in now if line["person"].club})
    form = LadderFilterForm(request.GET, clubs=clubs, seasons=seasons)
    valid = form.is_valid()
    club = form.cleaned_data.get("club", "") if valid else ""
    season = form.cleaned_data.get("season", "") if valid else ""
    lines = _lines_season(ladder, int(season)) if season else now
    active = _ranked([line for line in lines if line["status"] != core.INACTIVE])
    inactive = sorted(
        (line for line in lines if line["status"] == core.INACTIVE),
        key=lambda line: (-line["grade"], line["person"].pk),
    )
    if club:
        active = [line for line in active if line["person"].club == club]
        inactive = [line for line in inactive if line["person"].club == club]
    for line in [*active, *inactive]:
        line["status_word"] = STATUS_WORDS[line["status"]]
    show_inactive = request.GET.get("inactive") == "1"
    query = request.GET.copy()
    query.pop("inactive", None)
    toggle = query.copy()
    if not show_inactive:
        toggle["inactive"] = "1"
    content = render_to_string(
        "ladder/_ladder.html",
        {
            "ladder": ladder,
            "form": form,
            "filtered": bool(club or season),
            "season": season,
            "club": club,
            "active": active,
            "inactive": inactive,
            "show_inactive": show_inactive,
            "toggle_url": f"?{toggle.urlencode()}" if toggle else "?",
            "events": _events(ladder),
            "method": core.METHOD,
        },
        request=None,
    )
    return content, valid


# --- a person's page ----------------------------------------------------------------------


def person_page(request, slug, person_pk):
    """A person's grade, status and deals, his grade's history drawn, every rated session."""
    ladder = _ladder(slug)
    grade = _graded(ladder).filter(person_id=person_pk).first()
    if grade is None:
        raise Http404(_("No such player on this ladder."))
    key = _key("person", ladder, person_pk)
    return _cached(
        request,
        key,
        lambda: (_person_content(ladder, grade), True),
        f"{grade.person.full_name} — {ladder.name}",
    )


def _person_content(ladder: Ladder, grade: LadderGrade) -> str:
    rows = list(
        LadderRow.objects.filter(ladder=ladder, person_id=grade.person_id)
        .select_related("session__event")
        .order_by("order")
    )
    today = timezone.localdate()
    state = _status(ladder, grade.deals, grade.last_rated, today)
    place = None
    if state != core.INACTIVE:
        above = [
            g
            for g in _graded(ladder).filter(grade__gt=grade.grade)
            if _status(ladder, g.deals, g.last_rated, today) != core.INACTIVE
        ]
        place = len(above) + 1
    titles, dates = [], []
    for row in rows:
        day = date_format(row.date, "d.m.Y")
        dates.append(date_format(row.date, "d.m.y"))
        titles.append(
            _("%(date)s, %(event)s: %(after)s (%(change)s)")
            % {
                "date": day,
                "event": row.session.event.name,
                "after": f"{row.after:.2f}",
                "change": signed(row.after - row.before),
            }
        )
        row.change = row.after - row.before
    drawn = chart([row.after for row in rows], dates, titles) if rows else None
    return render_to_string(
        "ladder/_person.html",
        {
            "ladder": ladder,
            "grade": grade,
            "person": grade.person,
            "status_word": STATUS_WORDS[state],
            "inactive": state == core.INACTIVE,
            "place": place,
            "rows": rows,
            "chart": drawn,
        },
    )


__all__ = ["ladder_page", "ladder_recompute_now", "ladder_settings", "person_page"]
