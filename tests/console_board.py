"""Reading the console's board (director/_console_board.html, served to the poller as
``console.html``) back into plain data for assertions: the same shape the tests read."""

from __future__ import annotations

from html.parser import HTMLParser


class _Board(HTMLParser):
    def __init__(self):
        super().__init__()
        self.doc: dict = {"rows": [], "disputes": [], "late": [], "counts": {}}
        self._list = None
        self._count_state = None
        self._count_open = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == "console-board":
            self.doc["version"] = a["data-version"]
            self.doc["controls"] = a["data-controls"]
            self.doc["round"] = int(a["data-round"]) if a["data-round"] else None
            self.doc["round_state"] = a["data-round-state"] or None
            self.doc["results_public"] = a["data-results-public"] == "1"
        elif tag == "tr" and "data-table" in a:
            late = "late" in (a.get("class") or "").split()
            self.doc["rows"].append({"table": int(a["data-table"]), "late": late, "cells": []})
        elif tag == "td" and "data-state" in a and self.doc["rows"]:
            self.doc["rows"][-1]["cells"].append(
                {
                    "deal": int(a["data-deal"]),
                    "state": a["data-state"],
                    "version": int(a["data-version"]) if a.get("data-version") else None,
                    "late": "data-late" in a,
                    "unproven": "data-unproven" in a,
                }
            )
        elif tag == "ul" and ("data-disputes" in a or "data-late" in a):
            self._list = "disputes" if "data-disputes" in a else "late"
        elif tag == "li" and self._list and "data-table" in a:
            self.doc[self._list].append(
                {"round": int(a["data-round"]), "table": int(a["data-table"])}
            )
        elif tag == "li" and "data-state" in a:
            self._count_state = a["data-state"]
        elif tag == "strong" and "data-count" in a and self._count_state:
            self._count_open = True

    def handle_endtag(self, tag):
        if tag == "ul":
            self._list = None

    def handle_data(self, data):
        if self._count_open:
            self.doc["counts"][self._count_state] = int(data)
            self._count_open = False
            self._count_state = None


def board_doc(response) -> dict:
    """The poll's answer as data: ``{"version", "changed": False}`` for a 204, else the
    board's version, round, rows and cells, disputes, late tables and counts."""
    if response.status_code == 204:
        return {"version": response["X-Console-Version"], "changed": False}
    assert response.status_code == 200, response.status_code
    parser = _Board()
    parser.feed(response.content.decode())
    assert "version" in parser.doc, "no board in the answer"
    return parser.doc | {"changed": True}
