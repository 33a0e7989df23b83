"""The director's pages: events, players, the draw, rooms. Views only translate."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, Q, Subquery
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from events import gamesettings, meanwhile, notices, qr, roster, rounds, services, staff, throttle
from events.access import director_event
from events.forms import (
    DrawForm,
    EntryForm,
    EventForm,
    ImportConfirmForm,
    ImportUploadForm,
    LoginForm,
    PasteForm,
    apply_service_error,
)
from events.links import player_url
from events.models import Entry, Event, EventStaff, Room, Substitution
from events.params import query_errors, query_int
from events.register import services as register


@login_required
def event_list(request):
    """«Мои турниры»: the events he owns and those he serves on the staff, with his role."""
    events = list(
        Event.objects.visible_to(request.user).annotate(
            players=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE)),
            staff_role=Subquery(
                EventStaff.objects.filter(event=OuterRef("pk"), user=request.user).values("role")[
                    :1
                ]
            ),
        )
    )
    for event in events:
        chief = request.user.is_superuser or event.owner_id == request.user.pk
        event.role_label = staff.ROLE_LABELS[staff.CHIEF if chief else event.staff_role]
    return render(request, "director/event_list.html", {"events": events})


@login_required
def event_create(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(owner=request.user, **form.cleaned_data)
        except ValidationError as error:
            apply_service_error(form, error)
        else:
            messages.success(request, _("Event «%(name)s» created.") % {"name": event.name})
            return redirect(event)
    return render(
        request,
        "director/event_form.html",
        {"form": form, "event": None},
        status=400 if form.errors else 200,
    )


@director_event
def event_edit(request, event):
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(Event.objects.get(pk=event.pk), **form.cleaned_data)
        except ValidationError as error:
            apply_service_error(form, error)
        else:
            messages.success(request, _("Event saved."))
            return redirect(event)
    return render(
        request,
        "director/event_form.html",
        {"form": form, "event": event},
        status=400 if form.errors else 200,
    )


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


@director_event
def event_detail(request, event):
    entries = list(event.entries.all())
    notes = _substitution_notes(event)
    for entry in entries:
        entry.substitution_note = notes.get(entry.pk, "")
    return render(
        request,
        "director/event_detail.html",
        {
            "event": event,
            "game_settings": gamesettings.settings_lines(event),
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


def _entry_match(request, event, form):
    """The register's proposal for the add form's player, with the director's choice once
    the page has shown it for this very name and club (docs/register.md)."""
    data = form.cleaned_data
    row = roster.RosterRow(
        line=1, last_name=data["last_name"], first_name=data["first_name"], club=data["club"]
    )
    (match,) = register.propose_rows(event, [row])
    token = register.shown_token(row.last_name, row.first_name, row.club)
    shown = request.POST.get("register_shown") == token
    if shown:
        register.read_choices([match], request.POST)
    return match, token, shown


@director_event
def entry_add(request, event):
    form = EntryForm(request.POST or None)
    match, token = None, ""
    if request.method == "POST" and form.is_valid():
        match, token, shown = _entry_match(request, event, form)
        if match.row.problems or match.problem:
            form.add_error(None, "; ".join(filter(None, [*match.row.problems, match.problem])))
        elif match.persons and not shown:
            messages.info(request, _("Confirm who this player is, then save again."))
        else:
            try:
                entry = register.create_linked(
                    event, match, **form.cleaned_data, by_user=request.user
                )
            except ValidationError as error:
                apply_service_error(form, error)
            else:
                messages.success(request, _("%(name)s added.") % {"name": entry.full_name})
                if "add_another" in request.POST:
                    return redirect("director:entry_add", pk=event.pk)
                return redirect(event)
    return render(
        request,
        "director/entry_form.html",
        {"form": form, "event": event, "entry": None, "match": match, "token": token},
        status=400 if form.errors else 200,
    )


@director_event
def entry_edit(request, event, entry_pk):
    entry = get_object_or_404(event.entries, pk=entry_pk)
    form = EntryForm(request.POST or None, instance=entry)
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_update(
                event.entries.get(pk=entry.pk),
                by_user=request.user,
                expected=request.POST.get("expected"),
                **form.cleaned_data,
            )
        except ValidationError as error:
            apply_service_error(form, error)
        else:
            messages.success(request, _("Player saved."))
            return redirect(event)
    return _entry_page(request, event, entry, form)


def _entry_page(request, event, entry, form, link_error: str = ""):
    """The player's edit page; one linked to no person of the register also shows what the
    register proposes for him, to link him (docs/register.md)."""
    link = register.entry_match(entry) if entry.person_id is None else None
    if link is not None and link_error:
        link.problem = link_error
    return render(
        request,
        "director/entry_form.html",
        {
            "form": form,
            "event": event,
            "entry": entry,
            "link": link,
            # What the form is drawn from, as he is now (a bound form changed ``entry``).
            "entry_token": meanwhile.entry_token(event.entries.get(pk=entry.pk)),
        },
        status=400 if form.errors or link_error else 200,
    )


@director_event
@require_POST
def entry_link(request, event, entry_pk):
    """«Связать»: the player joins the person chosen among the register's proposals, or a
    new person."""
    entry = get_object_or_404(event.entries.select_related("person"), pk=entry_pk)
    try:
        entry = register.entry_link(entry, request.POST.get("person_0", ""))
    except ValidationError as error:
        return _entry_page(
            request, event, entry, EntryForm(instance=entry), " ".join(error.messages)
        )
    messages.success(
        request,
        _("%(name)s is linked to %(person)s.")
        % {"name": entry.full_name, "person": register.person_label(entry.person)},
    )
    return redirect("director:entry_edit", pk=event.pk, entry_pk=entry.pk)


@director_event
def entry_withdraw(request, event, entry_pk):
    """«Снять»: a page that says what the withdrawal means, then the withdrawal itself."""
    entry = get_object_or_404(event.entries, pk=entry_pk)
    error = None
    if request.method == "POST" and entry.status == Entry.Status.WITHDRAWN:
        # Another director withdrew him meanwhile: say so, not «withdrawn» a second time.
        messages.info(request, meanwhile.status_text(entry))
        return redirect(event)
    if request.method == "POST":
        try:
            entry = services.entry_withdraw(
                entry, confirmed=request.POST.get("confirm") == "yes", by_user=request.user
            )
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


@director_event
@require_POST
def entry_reinstate(request, event, entry_pk):
    entry = get_object_or_404(event.entries, pk=entry_pk)
    if entry.status == Entry.Status.ACTIVE:
        messages.info(request, meanwhile.status_text(entry))
        return redirect(event)
    try:
        entry = services.entry_reinstate(entry, by_user=request.user)
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


def _choice_error(matches) -> str:
    lines = [str(m.row.line) for m in matches if m.problem]
    return ngettext(
        "Choose who the player of line %(lines)s is; nothing was saved.",
        "Choose who the players of lines %(lines)s are; nothing was saved.",
        len(lines),
    ) % {"lines": ", ".join(lines)}


@director_event
def entries_paste(request, event):
    form = PasteForm(request.POST or None)
    check, matches, token = None, [], ""
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
                matches = register.propose_rows(event, rows)
                token = register.shown_token(form.cleaned_data["text"])
                shown = request.POST.get("register_shown") == token
                if shown:
                    register.read_choices(matches, request.POST)
                if check.ok and register.needs_choice(matches) and not shown:
                    messages.info(
                        request,
                        _(
                            "Some players may already be in your register: confirm who each "
                            "one is below, then «Add players» again."
                        ),
                    )
                elif check.ok and register.choice_problems(matches):
                    form.add_error(None, _choice_error(matches))
                elif check.ok:
                    try:
                        entries = register.import_linked(event, rows, matches, by_user=request.user)
                    except ValidationError as error:
                        form.add_error("text", " ".join(error.messages))
                    else:
                        return _imported(request, event, entries)
                else:
                    form.add_error(
                        "text",
                        _("%(count)d lines have problems; nothing was saved. Correct them below.")
                        % {"count": check.problem_count},
                    )
    return render(
        request,
        "director/entries_paste.html",
        {
            "form": form,
            "event": event,
            "check": check,
            "token": token,
            "choose": bool(check) and register.needs_choice(matches),
        },
        # A refusal (the text, a line or a choice) is a 400; asking who is who is not one.
        status=400 if form.errors else 200,
    )


@director_event
def entries_import(request, event):
    """The players' CSV import: the upload, answered by the preview of every row. A file
    refused (its size, encoding or columns) is a 400 with the form, its error on the file
    field naming the file (a browser cannot keep a chosen file); a preview whose rows have
    problems is a 400 too, since nothing of it can be saved."""
    posted = request.method == "POST"  # bound even with nothing in it: «no file» is an error
    form = ImportUploadForm(request.POST if posted else None, request.FILES if posted else None)
    if posted and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > roster.MAX_BYTES:
                raise roster.RosterError(_("The file is larger than 1 MB."))
            text, encoding = roster.decode_csv(upload.read())
            rows = roster.parse_csv(text)
        except roster.RosterError as error:
            form.add_error(
                "file", _("«%(file)s»: %(problem)s") % {"file": upload.name, "problem": error}
            )
        else:
            check = services.roster_check(event, rows)
            register.propose_rows(event, rows)
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
                status=200 if check.ok else 400,
            )
    return render(
        request,
        "director/entries_import.html",
        {"form": form, "event": event},
        status=400 if form.errors else 200,
    )


@director_event
@require_POST
def entries_import_confirm(request, event):
    form = ImportConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The import form was incomplete; upload the file again."))
        return redirect("director:entries_import", pk=event.pk)
    try:
        rows = roster.parse_csv(form.cleaned_data["text"])
    except roster.RosterError as error:
        messages.error(request, str(error))
        return redirect("director:entries_import", pk=event.pk)
    # The register is proposed again as it is now; the director's choices are read against
    # it (docs/register.md): nothing is linked that the page did not propose.
    matches = register.propose_rows(event, rows)
    register.read_choices(matches, request.POST)
    try:
        if not all(row.ok for row in rows):
            services.roster_check(event, rows)  # the event's problems too, all at once
            raise ValidationError(
                _("%(count)d rows have problems; nothing was saved.")
                % {"count": sum(1 for row in rows if not row.ok)}
            )
        if register.choice_problems(matches):
            raise ValidationError(_choice_error(matches))
        return _imported(
            request, event, register.import_linked(event, rows, matches, by_user=request.user)
        )
    except ValidationError as error:
        # The rows now carry their problems (someone may have taken a number meanwhile).
        messages.error(request, " ".join(error.messages))
        return render(
            request,
            "director/entries_preview.html",
            {"event": event, "check": services.RosterCheck(rows), "confirm": form},
            status=400,
        )


@director_event
@require_POST
def draw(request, event):
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


@director_event
def draw_list(request, event):
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


@director_event
def room_list(request, event):
    rooms = Room.objects.of_event(event).select_related("session").prefetch_related("tables")
    return render(request, "director/room_list.html", {"event": event, "rooms": rooms})


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


@director_event
@require_POST
def session_rounds_start(request, event, number):
    """«Начать тур во всех комнатах»: the next round of every room of the session, in one
    click and one transaction; the result is told room by room."""
    session = get_object_or_404(event.sessions, number=number)
    rounds.timers_unqueued()  # what an earlier request of this thread left: not ours
    for done in rounds.session_start_rounds(session, by_user=request.user):
        level, text = ROOM_START_TEXTS[done.outcome]
        messages.add_message(
            request,
            level,
            text % {"room": done.room, "round": done.round, "why": done.message},
        )
    notices.tell_unqueued(request)
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("director:room_list", pk=event.pk)


#: Name cards per page: 30 A4 sheets of 8. A big event prints page by page, each page built
#: in about a second (its QR codes kept in the cache after that).
CARDS_PER_PAGE = 240


@director_event
@query_errors
def name_cards(request, event):
    """An A4 sheet of name cards, each with the player's private QR code; a page of
    :data:`CARDS_PER_PAGE` cards at a time (``?page=N``) for a big event."""
    entries = event.entries.active().order_by("number", "last_name", "pk")
    total = entries.count()
    pages = max(1, -(-total // CARDS_PER_PAGE))
    page = query_int(request.GET, "page", maximum=pages, default=1)
    first = (page - 1) * CARDS_PER_PAGE
    chosen = list(entries[first : first + CARDS_PER_PAGE])
    urls = {e.pk: player_url(request, e.key) for e in chosen}
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


@director_event
def player_qr(request, event, entry_pk):
    """One player's QR code, big enough to scan from a phone held at arm's length."""
    entry = get_object_or_404(event.entries, pk=entry_pk)
    url = player_url(request, entry.key)
    return render(
        request,
        "director/player_qr.html",
        {"event": event, "entry": entry, "url": url, "qr": qr.qr_svg(url, scale=12)},
    )


class LoginView(auth_views.LoginView):
    """The director's login (``events.forms.LoginForm``); a locked name is axes' to answer,
    by :func:`login_locked`."""

    authentication_form = LoginForm


def login_locked(request, response=None, credentials=None):
    """``AXES_LOCKOUT_CALLABLE``: the answer to a login whose name is locked from this
    address (events.throttle) — the director's login page and the admin's alike: the login
    form with the name as typed and, above it, the lock and the minutes left, in the user's
    language; HTTP 429. No authentication is tried again."""
    seconds = max(1, throttle.seconds_locked(request, credentials))
    form = LoginForm(request, data=request.POST, locked_seconds=seconds)
    form.is_valid()  # only fills the form's errors: a locked form authenticates nothing
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    context = {"form": form, "next": next_url}
    return render(request, "director/login.html", context, status=429)
