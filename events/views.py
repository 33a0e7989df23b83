"""The director's pages: events, players, the draw, rooms. Views only translate."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events import announcements, clockdoc, console, qr, roster, rounds, services
from events.forms import (
    DrawForm,
    EntryForm,
    EventForm,
    ImportConfirmForm,
    ImportUploadForm,
    LoginForm,
    PasteForm,
)
from events.models import Announcement, Entry, Event, Room, Round, Substitution
from events.params import query_errors, query_int


def event_for(user, pk) -> Event:
    """The event if this director may see it; otherwise 404, saying nothing of others' events."""
    try:
        return Event.objects.visible_to(user).get(pk=pk)
    except (Event.DoesNotExist, ValueError):
        raise Http404(_("No such event among yours.")) from None


def _apply_validation_error(form, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


@login_required
def event_list(request):
    events = Event.objects.visible_to(request.user).annotate(
        players=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE))
    )
    return render(request, "director/event_list.html", {"events": events})


@login_required
def event_create(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(owner=request.user, **form.cleaned_data)
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Event «%(name)s» created.") % {"name": event.name})
            return redirect(event)
    return render(request, "director/event_form.html", {"form": form, "event": None})


@login_required
def event_edit(request, pk):
    event = event_for(request.user, pk)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(Event.objects.get(pk=event.pk), **form.cleaned_data)
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Event saved."))
            return redirect(event)
    return render(request, "director/event_form.html", {"form": form, "event": event})


def _substitution_notes(event) -> dict[int, str]:
    """entry id → what a substitution made of him, for the player list."""
    notes: dict[int, list[str]] = {}
    for sub in Substitution.objects.filter(session__event=event).select_related(
        "session", "leaving", "arriving"
    ):
        figures = {"round": sub.from_round, "session": sub.session.number}
        notes.setdefault(sub.leaving_id, []).append(
            _("replaced by %(name)s from round %(round)d of session %(session)d")
            % (figures | {"name": sub.arriving.full_name})
        )
        notes.setdefault(sub.arriving_id, []).append(
            _("substitute for %(name)s from round %(round)d of session %(session)d")
            % (figures | {"name": sub.leaving.full_name})
        )
    return {pk: "; ".join(texts) for pk, texts in notes.items()}


@login_required
def event_detail(request, pk):
    event = event_for(request.user, pk)
    entries = list(event.entries.all())
    notes = _substitution_notes(event)
    for entry in entries:
        entry.substitution_note = notes.get(entry.pk, "")
    return render(
        request,
        "director/event_detail.html",
        {
            "event": event,
            "entries": entries,
            "draw_refusal": services.draw_refusal(event),
            "active_count": sum(1 for e in entries if e.status == Entry.Status.ACTIVE),
            "unnumbered": sum(
                1 for e in entries if e.number is None and e.status == Entry.Status.ACTIVE
            ),
            "draw_form": DrawForm(),
            "last_draw": event.draws.first(),
        },
    )


@login_required
def entry_add(request, pk):
    event = event_for(request.user, pk)
    form = EntryForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_create(event, **form.cleaned_data)
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("%(name)s added.") % {"name": entry.full_name})
            if "add_another" in request.POST:
                return redirect("director:entry_add", pk=event.pk)
            return redirect(event)
    return render(
        request, "director/entry_form.html", {"form": form, "event": event, "entry": None}
    )


@login_required
def entry_edit(request, pk, entry_pk):
    event = event_for(request.user, pk)
    entry = get_object_or_404(event.entries, pk=entry_pk)
    form = EntryForm(request.POST or None, instance=entry)
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_update(event.entries.get(pk=entry.pk), **form.cleaned_data)
        except ValidationError as error:
            _apply_validation_error(form, error)
        else:
            messages.success(request, _("Player saved."))
            return redirect(event)
    return render(
        request, "director/entry_form.html", {"form": form, "event": event, "entry": entry}
    )


@login_required
def entry_withdraw(request, pk, entry_pk):
    """«Снять»: a page that says what the withdrawal means, then the withdrawal itself."""
    event = event_for(request.user, pk)
    entry = get_object_or_404(event.entries, pk=entry_pk)
    error = None
    if request.method == "POST":
        try:
            entry = services.entry_withdraw(entry, confirmed=request.POST.get("confirm") == "yes")
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(request, _("%(name)s withdrawn.") % {"name": entry.full_name})
            return redirect(event)
    effect = services.withdrawal_effect(entry)
    return render(
        request,
        "director/entry_withdraw.html",
        {
            "event": event,
            "entry": entry,
            "effect": effect,
            "warning": services.withdrawal_warning(entry, effect) if effect.seated else "",
            "error": error,
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def entry_reinstate(request, pk, entry_pk):
    event = event_for(request.user, pk)
    try:
        entry = services.entry_reinstate(get_object_or_404(event.entries, pk=entry_pk))
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("%(name)s is playing again.") % {"name": entry.full_name})
    return redirect(event)


def _imported(request, event, entries):
    messages.success(
        request,
        ngettext("%(count)d player added.", "%(count)d players added.", len(entries))
        % {"count": len(entries)},
    )
    return redirect(event)


@login_required
def entries_paste(request, pk):
    event = event_for(request.user, pk)
    form = PasteForm(request.POST or None)
    check = None
    if request.method == "POST" and form.is_valid():
        try:
            rows = roster.parse_paste(form.cleaned_data["text"])
        except roster.RosterError as error:
            form.add_error("text", str(error))
        else:
            if not rows:
                form.add_error("text", _("No players in the text."))
            else:
                check = services.roster_check(event, rows)
                if check.ok:
                    return _imported(request, event, services.entries_import(event, rows))
                form.add_error(
                    "text",
                    _("%(count)d lines have problems; nothing was saved. Correct them below.")
                    % {"count": check.problem_count},
                )
    return render(
        request, "director/entries_paste.html", {"form": form, "event": event, "check": check}
    )


@login_required
def entries_import(request, pk):
    event = event_for(request.user, pk)
    form = ImportUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > roster.MAX_BYTES:
                raise roster.RosterError(_("The file is larger than 1 MB."))
            text, encoding = roster.decode_csv(upload.read())
            rows = roster.parse_csv(text)
        except roster.RosterError as error:
            form.add_error("file", str(error))
        else:
            check = services.roster_check(event, rows)
            return render(
                request,
                "director/entries_preview.html",
                {
                    "event": event,
                    "check": check,
                    "encoding": encoding,
                    "filename": upload.name,
                    "confirm": ImportConfirmForm(initial={"text": text, "source": "csv"}),
                },
            )
    return render(request, "director/entries_import.html", {"form": form, "event": event})


@login_required
@require_POST
def entries_import_confirm(request, pk):
    event = event_for(request.user, pk)
    form = ImportConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The import form was incomplete; upload the file again."))
        return redirect("director:entries_import", pk=event.pk)
    try:
        rows = roster.parse_csv(form.cleaned_data["text"])
    except roster.RosterError as error:
        messages.error(request, str(error))
        return redirect("director:entries_import", pk=event.pk)
    try:
        return _imported(request, event, services.entries_import(event, rows))
    except ValidationError as error:
        # The rows now carry their problems (someone may have taken a number meanwhile).
        messages.error(request, " ".join(error.messages))
        return render(
            request,
            "director/entries_preview.html",
            {"event": event, "check": services.RosterCheck(rows), "confirm": form},
        )


@login_required
@require_POST
def draw(request, pk):
    event = event_for(request.user, pk)
    form = DrawForm(request.POST)
    if form.is_valid():
        try:
            made = services.draw_make(event, by=request.user, seed=form.cleaned_data["seed"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request, _("Numbers drawn with seed «%(seed)s».") % {"seed": made.seed}
            )
    else:
        messages.error(request, " ".join(form.errors.get("seed", [])))
    return redirect(event)


@login_required
def draw_list(request, pk):
    event = event_for(request.user, pk)
    names = {e.pk: e.full_name for e in event.entries.all()}
    draws = [
        {
            "draw": d,
            "rows": sorted(
                ((number, names.get(int(entry_pk), "—")) for entry_pk, number in d.numbers.items())
            ),
        }
        for d in event.draws.select_related("made_by")
    ]
    return render(request, "director/draw_list.html", {"event": event, "draws": draws})


@login_required
def room_list(request, pk):
    event = event_for(request.user, pk)
    rooms = Room.objects.of_event(event).select_related("session").prefetch_related("tables")
    return render(request, "director/room_list.html", {"event": event, "rooms": rooms})


ROUND_ACTIONS = {
    "start": rounds.round_start,
    "pause": rounds.round_pause,
    "resume": rounds.round_resume,
    "adjust": rounds.round_adjust,
    "end": rounds.round_end_now,
}


def _round_asked(request) -> int | None:
    """The console's ``?round=N`` (a round number in the room); None: follow the clock."""
    return query_int(request.GET, "round")


def _console(room, round_number) -> console.Console:
    try:
        return console.console_state(room, round_number=round_number)
    except console.NoSuchRound:
        raise Http404(_("No such round in this room.")) from None


def _room(event, room_pk) -> Room:
    return get_object_or_404(
        Room.objects.of_event(event).select_related("session__event"), pk=room_pk
    )


def _grid(state: console.Console) -> list[dict]:
    """The grid's rows with each cell's sign and name, and the empty cells that fill a row
    of a smaller set up to the widest one."""
    return [
        {
            "row": row,
            "cells": [(cell, *console.LEGEND[cell.state]) for cell in row.cells],
            "padding": range(len(state.deals) - len(row.cells)),
        }
        for row in state.rows
    ]


def _room_page(
    request,
    event,
    room,
    *,
    typed=None,
    status=200,
    round_number=None,
    field_errors=None,
    confirm_end=False,
):
    log = (
        Announcement.objects.filter(room=room)
        .select_related("round", "room")
        .order_by("-fired_at", "-id")
    )
    state = _console(room, round_number)
    return render(
        request,
        "director/room_detail.html",
        {
            "event": event,
            "room": room,
            "clock": clockdoc.room_clock(room),
            "current": room.rounds.filter(
                state__in=[Round.State.RUNNING, Round.State.PAUSED]
            ).first(),
            "next_round": rounds.room_next_round(room),
            "log": [
                (
                    a,
                    announcements.headline(a),
                    announcements.details(a),
                    (a.fired_at - a.due_at).total_seconds() if a.due_at else None,
                )
                for a in log[:100]
            ],
            "typed": typed or {},
            "field_errors": field_errors or {},
            "confirm_end": confirm_end,
            "other_rooms": room.session.rooms.exclude(pk=room.pk).exists(),
            "console": state,
            "legend": [
                (name, *console.LEGEND[name], state.counts[name]) for name in console.STATES
            ],
            "grid": _grid(state),
        },
        status=status,
    )


@login_required
@query_errors
def room_detail(request, pk, room_pk):
    """The room's live console: the clock and its controls, the grid of sheets, disputes and
    late tables, and the ways to act on them."""
    event = event_for(request.user, pk)
    room = _room(event, room_pk)
    return _room_page(
        request,
        event,
        room,
        round_number=_round_asked(request),
        confirm_end=request.GET.get("confirm") == "end",
    )


@never_cache
@login_required
@query_errors
def room_console_json(request, pk, room_pk):
    """The console's state for the page's poller; ``?since=<version>`` answers only whether
    anything changed."""
    round_number = _round_asked(request)
    # One query finds the room and proves it is this director's; an unchanged version
    # answers from the cache without building the grid (hundreds of polls an hour).
    room = (
        Room.objects.filter(pk=room_pk, session__event__in=Event.objects.visible_to(request.user))
        .filter(session__event_id=pk)
        .select_related("session__event")
        .order_by()
        .first()
    )
    if room is None:
        raise Http404(_("No such event among yours."))
    version = clockdoc.console_version(room)
    if request.GET.get("since") == version:
        return JsonResponse({"version": version, "changed": False})
    # Built once per version (read before building) and language: every console open on
    # the room (the director's laptop, an assistant's) takes the same copy.
    key = f"console:{room.pk}:{version}:{round_number or ''}:{get_language() or ''}"
    state = clockdoc.by_tokens(key, lambda: _console(room, round_number).as_dict())
    return JsonResponse(state | {"changed": True})


@login_required
@require_POST
def round_action(request, pk, round_pk, action):
    event = event_for(request.user, pk)
    rnd = get_object_or_404(
        Round.objects.filter(room__session__event=event).select_related("room__session__event"),
        pk=round_pk,
    )
    service = ROUND_ACTIONS.get(action)
    if service is None:
        raise Http404(_("No such clock action."))
    if action == "end" and request.POST.get("confirm") != "yes":
        # Ending a round cannot be undone: ask first (the page shows what it will do).
        return _room_page(request, event, rnd.room, confirm_end=True)
    kwargs = {}
    try:
        if action == "adjust":
            if not request.POST.get("minutes", "").strip():
                raise ValidationError(
                    _(
                        "«Add minutes»: type how many minutes to add, e.g. 5, or a negative "
                        "number such as −2 to take time off."
                    )
                )
            kwargs["seconds"] = _int_field(request.POST, "minutes", _("Add minutes")) * 60
        elif action == "start" and request.POST.get("minutes", "").strip():
            kwargs["length_seconds"] = _int_field(request.POST, "minutes", _("minutes")) * 60
        rounds.timers_unqueued()  # what an earlier request of this thread left: not ours
        service(rnd, **kwargs)
    except ValidationError as error:
        # Show the refusal on the page itself, next to the field, keeping what was typed.
        text = " ".join(error.messages)
        if action not in FIELD_ACTIONS:  # the others show it next to their field, once
            messages.error(request, text)
        typed = {action: request.POST.get("minutes", "")}
        return _room_page(
            request, event, rnd.room, typed=typed, status=400, field_errors={action: text}
        )
    _tell_unqueued(request)
    return redirect("director:room_detail", pk=event.pk, room_pk=rnd.room_id)


#: What the director reads when the round changed but its timer could not be queued.
TIMERS_UNQUEUED = gettext_lazy(
    "Done, but the task queue does not answer: the server's timer could not be set. "
    "«Конец тура!» still comes on time — the first look at the room's clock after the end "
    "(the hall screen, any phone, this page) gives it. Check the worker and Redis "
    "(/healthz)."
)


def _tell_unqueued(request) -> None:
    if rounds.timers_unqueued():
        messages.warning(request, TIMERS_UNQUEUED)


#: The clock actions whose form has a field the refusal is shown next to.
FIELD_ACTIONS = ("adjust", "start")

#: What «start the next round in every room» tells about each room.
ROOM_START_TEXTS = {
    "started": (messages.SUCCESS, gettext_lazy("%(room)s: round %(round)s started.")),
    "running": (
        messages.INFO,
        gettext_lazy("%(room)s: round %(round)s is already on the clock; left as it is."),
    ),
    "done": (messages.INFO, gettext_lazy("%(room)s: every round has been played.")),
    "refused": (messages.ERROR, gettext_lazy("%(room)s: round %(round)s not started. %(why)s")),
}


@login_required
@require_POST
def session_rounds_start(request, pk, number):
    """«Начать тур во всех комнатах»: the next round of every room of the session, in one
    click and one transaction; the result is told room by room."""
    event = event_for(request.user, pk)
    session = get_object_or_404(event.sessions, number=number)
    rounds.timers_unqueued()  # what an earlier request of this thread left: not ours
    for done in rounds.session_start_rounds(session):
        level, text = ROOM_START_TEXTS[done.outcome]
        messages.add_message(
            request,
            level,
            text % {"room": done.room, "round": done.round, "why": done.message},
        )
    _tell_unqueued(request)
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("director:room_list", pk=event.pk)


def _int_field(data, name, label) -> int:
    raw = data.get(name, "").strip()
    try:
        return int(raw)
    except ValueError:
        raise ValidationError(
            _("«%(field)s» must be a whole number, not «%(value)s».")
            % {"field": label, "value": raw}
        ) from None


#: Name cards per page: 30 A4 sheets of 8. A big event prints page by page, each page built
#: in about a second (its QR codes kept in the cache after that).
CARDS_PER_PAGE = 240


@login_required
@query_errors
def name_cards(request, pk):
    """An A4 sheet of name cards, each with the player's private QR code; a page of
    :data:`CARDS_PER_PAGE` cards at a time (``?page=N``) for a big event."""
    event = event_for(request.user, pk)
    entries = event.entries.active().order_by("number", "last_name", "pk")
    total = entries.count()
    pages = max(1, -(-total // CARDS_PER_PAGE))
    page = query_int(request.GET, "page", maximum=pages, default=1)
    first = (page - 1) * CARDS_PER_PAGE
    chosen = list(entries[first : first + CARDS_PER_PAGE])
    urls = {e.pk: request.build_absolute_uri(f"/p/{e.key}/") for e in chosen}
    codes = qr.qr_svgs(list(urls.values()), scale=4)
    cards = [{"entry": e, "url": urls[e.pk], "qr": codes[urls[e.pk]]} for e in chosen]
    return render(
        request,
        "director/name_cards.html",
        {
            "event": event,
            "cards": cards,
            "page": page,
            "pages": [
                {
                    "number": n,
                    "first": (n - 1) * CARDS_PER_PAGE + 1,
                    "last": min(n * CARDS_PER_PAGE, total),
                }
                for n in range(1, pages + 1)
            ]
            if pages > 1
            else [],
            "total": total,
        },
    )


@login_required
def player_qr(request, pk, entry_pk):
    """One player's QR code, big enough to scan from a phone held at arm's length."""
    event = event_for(request.user, pk)
    entry = get_object_or_404(event.entries, pk=entry_pk)
    url = request.build_absolute_uri(f"/p/{entry.key}/")
    return render(
        request,
        "director/player_qr.html",
        {"event": event, "entry": entry, "url": url, "qr": qr.qr_svg(url, scale=12)},
    )


class LoginView(auth_views.LoginView):
    """The director's login (``events.forms.LoginForm``): a locked name answers 429."""

    authentication_form = LoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if any(e.code == "throttled" for e in form.non_field_errors().as_data()):
            response.status_code = 429
        return response
