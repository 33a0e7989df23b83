"""Every public address of an event a test walks as an outsider: its pages, files and API
answers (one list, for every test that asserts what the public may or may not see)."""

from django.urls import reverse


def public_urls(event, session) -> list[str]:
    """The event's and ``session``'s pages, text files and API answers, and every player's
    card (page, CSV, API); the deals' own addresses are :func:`deal_urls`."""
    from events.models import Entry

    slug, n = event.slug, session.number
    urls = [
        reverse("public:event", args=[slug]),
        reverse("public:event_csv", args=[slug]),
        reverse("public:session", args=[slug, n]),
        reverse("public:session_csv", args=[slug, n]),
        reverse("public:session_travellers_csv", args=[slug, n]),
        reverse("public:session_hands", args=[slug, n]),
        reverse("public:session_hands_txt", args=[slug, n]),
        reverse("public:session_check", args=[slug, n]),
        reverse("public:clock", args=[slug]),
        f"/api/v1/events/{event.pk}/standings/",
        f"/api/v1/events/{event.pk}/standings/?session={n}",
    ]
    for entry in Entry.objects.filter(event=event):
        urls += [
            reverse("public:card", args=[slug, entry.number]),
            reverse("public:card_csv", args=[slug, entry.number]),
            f"/api/v1/events/{event.pk}/players/{entry.pk}/card/",
        ]
    return urls


def deal_urls(event, deal) -> list[str]:
    """One deal's traveller: page, CSV, API, XLSX (in that order)."""
    return [
        reverse("public:traveller", args=[event.slug, deal.pk]),
        reverse("public:traveller_csv", args=[event.slug, deal.pk]),
        f"/api/v1/events/{event.pk}/deals/{deal.pk}/traveller/",
        reverse("public:traveller_xlsx", args=[event.slug, deal.pk]),
    ]
