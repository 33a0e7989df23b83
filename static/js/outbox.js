/* The table's outbox (docs/offline.md): a sheet «Сохранить»-ed while the phone is offline, or
   whose request fails or times out, is kept on the phone (localStorage, one key per sheet:
   «outbox:<random id>») and sent by itself when the connection is back — at once on
   `online` (after a random moment of up to ONLINE_SPREAD_MS, so that a hall's phones do not
   all send in the same instant), then with back-off (2, 4, 8 … 60 s, each with random jitter)
   while it keeps failing. The server records it once: sending the same result again changes
   nothing (scoring.sheets.services.sheet_record compares the results), so a sheet whose answer was
   lost is simply sent again.

   Kept: the form's address and its fields — never a PIN (a sheet so queued arrives without
   one, marked for the director, unless the player came from his own link, which proves him).
   A confirmation goes in only from a form that needs no PIN (the player's own link). A
   refusal found on sending (a rule, the round closed, a changed sheet) is kept beside the
   deal's draft: the deal's form opened again shows the server's message and every field.

   Without JavaScript the forms are sent as usual; with it, «Сохранить» is sent by fetch with
   a timeout and the page follows the server's answer as the browser would. The panel
   (#outbox, table/_outbox.html) shows the queue: «в очереди: 2» (each item named below it), then «отправлено». */
(function () {
  "use strict";
  var PREFIX = "outbox:";
  var REFUSED = "outbox-refused:";
  var TIMEOUT_MS = 15000;
  var ONLINE_SPREAD_MS = 1500;
  var CLAIM_MS = TIMEOUT_MS + 5000;  // another tab of this phone is sending it
  var timer = null, sending = false, panel = null, sentShown = false;
  var inflight = null;  // the id of the item this page is sending now

  function store() { try { return window.localStorage; } catch (e) { return null; } }
  function read(key) {
    var s = store();
    try { return s ? JSON.parse(s.getItem(key) || "null") : null; } catch (e) { return null; }
  }
  function write(key, value) {
    var s = store();
    try { if (s) s.setItem(key, JSON.stringify(value)); return true; } catch (e) { return false; }
  }
  function remove(key) { var s = store(); try { if (s) s.removeItem(key); } catch (e) {} }
  function keys(prefix) {
    var s = store(), found = [];
    if (!s) return found;
    for (var i = 0; i < s.length; i++) {
      var k = s.key(i);
      if (k && k.indexOf(prefix) === 0) found.push(k);
    }
    return found;
  }
  function items() {
    return keys(PREFIX).map(read).filter(Boolean).sort(function (a, b) { return a.created - b.created; });
  }
  function newId() {
    if (window.crypto && crypto.getRandomValues) {
      var a = new Uint32Array(2);
      crypto.getRandomValues(a);
      return a[0].toString(36) + a[1].toString(36);
    }
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  /* The fields a form would send, without the PIN, with the button pressed. */
  function fieldsOf(form, submitter) {
    var pairs = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.disabled || el.name === "pin" || el.type === "password") return;
      if (el.type === "submit" || el.type === "button") return;
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return;
      if (el.tagName === "SELECT" && el.multiple) {
        Array.prototype.forEach.call(el.selectedOptions, function (o) { pairs.push([el.name, o.value]); });
        return;
      }
      pairs.push([el.name, el.value]);
    });
    if (submitter && submitter.name) pairs.push([submitter.name, submitter.value]);
    return pairs;
  }
  function actionOf(form) {
    var url = new URL(form.getAttribute("action") || window.location.href, window.location.href);
    url.hash = "";
    return url.pathname + url.search;
  }

  function queue(form, submitter) {
    var item = {
      id: newId(),
      url: actionOf(form),
      fields: fieldsOf(form, submitter),
      label: form.getAttribute("data-outbox-label") || "",
      draft: form.getAttribute("data-storage-key") || "",
      form: form.getAttribute("data-outbox-form") || actionOf(form),
      created: Date.now(),
      tries: 0,
      next: 0,
    };
    if (item.draft) item.draftData = read(item.draft);
    if (!write(PREFIX + item.id, item)) return null;
    if (item.draft) remove(REFUSED + item.draft);
    return item;
  }

  /* The answer to one sending: "sent", "refused" (with the server's words) or "retry". */
  function post(item, fields) {
    var body = new URLSearchParams();
    fields.forEach(function (p) { body.append(p[0], p[1]); });
    var ctl = window.AbortController ? new AbortController() : null;
    var t = setTimeout(function () { if (ctl) ctl.abort(); }, TIMEOUT_MS);
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      cache: "no-store", signal: ctl ? ctl.signal : undefined,
    }).then(function (r) {
      clearTimeout(t);
      // A write done answers with a redirect (to the round's page): the sheet is recorded.
      if (r.type === "opaqueredirect" || (r.status >= 300 && r.status < 400)) return { outcome: "sent" };
      if (r.status === 403) return { outcome: "csrf" };
      if (r.status >= 500 || r.status === 429 || r.status === 0) return { outcome: "retry" };
      return r.text().then(function (html) { return { outcome: "refused", texts: problems(html) }; });
    }, function () { clearTimeout(t); return { outcome: "retry" }; });
  }

  /* The server's reasons in its page: the summary of problems, else the page's errors and
     warnings. */
  function problems(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var picked = doc.querySelectorAll("#error-summary li, .errors p, .messages .msg.warning, .messages .msg.error");
    var texts = [];
    Array.prototype.forEach.call(picked, function (el) {
      var t = (el.textContent || "").replace(/\s+/g, " ").trim();
      if (t && texts.indexOf(t) < 0) texts.push(t);
    });
    if (!texts.length) {
      var h = doc.querySelector("main h1, h1");
      if (h) texts.push(h.textContent.replace(/\s+/g, " ").trim());
    }
    return texts;
  }

  /* A fresh CSRF token from the form's own page (a 403: the phone's token has changed). */
  function freshToken(item) {
    return fetch(item.form || item.url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var input = doc.querySelector('input[name="csrfmiddlewaretoken"]');
        return input ? input.value : null;
      })
      .catch(function () { return null; });
  }

  function send(item) {
    return post(item, item.fields).then(function (answer) {
      if (answer.outcome !== "csrf") return answer;
      return freshToken(item).then(function (token) {
        if (!token) return { outcome: "retry" };
        item.fields = item.fields.map(function (p) { return p[0] === "csrfmiddlewaretoken" ? [p[0], token] : p; });
        return post(item, item.fields).then(function (again) {
          return again.outcome === "csrf" ? { outcome: "refused", texts: [] } : again;
        });
      });
    });
  }

  function settle(item, answer) {
    var key = PREFIX + item.id;
    if (!read(key)) return;  // another tab settled it
    if (answer.outcome === "sent") {
      remove(key);
      if (item.draft) { remove(item.draft); remove(REFUSED + item.draft); }
      sentShown = true;
      document.dispatchEvent(new CustomEvent("outbox:sent", { detail: { label: item.label } }));
    } else if (answer.outcome === "refused") {
      remove(key);
      var refusal = { texts: answer.texts, label: item.label, form: item.form, at: Date.now() };
      write(REFUSED + (item.draft || item.id), refusal);
      // The deal's form opened again takes every field back (static/js/table.js).
      if (item.draft && item.draftData) write(item.draft, item.draftData);
      document.dispatchEvent(new CustomEvent("outbox:refused", { detail: { label: item.label } }));
    } else {
      item.tries += 1;
      item.claimed = 0;
      var base = Math.min(60000, 2000 * Math.pow(2, item.tries - 1));
      item.next = Date.now() + base * (0.5 + Math.random());
      write(key, item);
    }
  }

  /* Send every item due, one after the other; then wait for the next one due. */
  function flush() {
    clearTimeout(timer);
    if (sending) return;
    if (navigator.onLine === false) { render(); return; }
    var now = Date.now();
    var due = items().filter(function (it) { return it.next <= now && !(it.claimed && now - it.claimed < CLAIM_MS); });
    if (!due.length) { render(); plan(); return; }
    var item = due[0];
    item.claimed = now;
    write(PREFIX + item.id, item);
    sending = true;
    inflight = item.id;
    render();
    send(item).then(function (answer) { settle(item, answer); }, function () {
      settle(item, { outcome: "retry" });
    }).then(function () {
      sending = false;
      inflight = null;
      flush();
    });
  }
  function plan() {
    var waiting = items();
    if (!waiting.length) return;
    var next = Math.min.apply(null, waiting.map(function (it) { return Math.max(it.next, (it.claimed || 0) + CLAIM_MS); }));
    timer = setTimeout(flush, Math.max(500, next - Date.now()));
  }

  function plural(el, n) {
    var rule = "other";
    try { rule = new Intl.PluralRules(document.documentElement.lang || "ru").select(n); } catch (e) {}
    var text = el.getAttribute("data-count-" + rule) || el.getAttribute("data-count-many") || el.getAttribute("data-count-other") || "";
    return text.replace(/\d+/, String(n));
  }

  function render() {
    if (!panel) return;
    var waiting = items();
    var refused = keys(REFUSED).map(function (k) { return [k, read(k)]; }).filter(function (p) { return p[1]; });
    var count = panel.querySelector("[data-outbox-count]");
    var list = panel.querySelector("[data-outbox-list]");
    var state = panel.querySelector("[data-outbox-state]");
    list.textContent = "";
    if (waiting.length) {
      count.textContent = plural(count, waiting.length);
      state.textContent = navigator.onLine === false ? panel.getAttribute("data-offline") : sending ? panel.getAttribute("data-sending") : panel.getAttribute("data-waiting");
      waiting.forEach(function (it) {
        var li = document.createElement("li");
        li.textContent = it.label;
        li.setAttribute("data-outbox-item", it.id);
        list.appendChild(li);
      });
      sentShown = false;
    } else {
      count.textContent = sentShown ? panel.getAttribute("data-sent") : "";
      state.textContent = "";
    }
    refused.forEach(function (p) {
      var r = p[1];
      var li = document.createElement("li");
      li.className = "outbox-refused";
      li.setAttribute("data-outbox-refused", "");
      var head = document.createElement("strong");
      head.textContent = r.label + ": " + panel.getAttribute("data-refused");
      li.appendChild(head);
      li.appendChild(document.createTextNode(" " + (r.texts || []).join(" ") + " "));
      if (r.form) {
        var a = document.createElement("a");
        a.href = r.form;
        a.textContent = panel.getAttribute("data-open-form");
        li.appendChild(a);
      }
      list.appendChild(li);
    });
    panel.hidden = !waiting.length && !refused.length && !sentShown;
  }

  /* The deal's form opened after its queued sheet was refused: the server's words above it
     (its fields come back from the draft: table.js). Sending the form again clears them. */
  function showRefusal(form) {
    var draft = form.getAttribute("data-storage-key");
    var box = document.getElementById("outbox-refusal");
    if (!draft || !box) return;
    var refusal = read(REFUSED + draft);
    if (!refusal) return;
    var holder = box.querySelector("[data-outbox-texts]");
    holder.textContent = "";
    (refusal.texts || []).forEach(function (t) {
      var p = document.createElement("p");
      p.textContent = t;
      holder.appendChild(p);
    });
    box.hidden = false;
  }

  /* Where the server's redirect leads after a write (the round's page, naming the player as
     the server does: by his own link's key, else by the seat chosen). */
  function nextUrl(form) {
    var base = form.getAttribute("data-outbox-next");
    if (!base) return "";
    var saved = form.getAttribute("data-outbox-saved");
    if (!saved) return base;
    var me = form.querySelector('input[name="me"]');
    var as = form.querySelector('input[name="as"]:checked');
    var who = me && me.value ? "me=" + encodeURIComponent(me.value) : as ? "as=" + encodeURIComponent(as.value) : "";
    return base + "?" + (who ? who + "&" : "") + "saved=" + encodeURIComponent(saved);
  }

  /* «Сохранить» pressed (or a confirmation that needs no PIN): sent by fetch with a
     timeout; queued offline or on a failure. One listener for the page: the round page's
     live part is replaced as the round moves (table.js), its forms with it. */
  function queued(pinTyped) {
    render();
    var note = document.getElementById("outbox-note");
    var pinNote = document.getElementById("outbox-pin-note");
    if (pinNote) pinNote.hidden = !pinTyped;
    if (note) { note.hidden = false; note.focus(); }
    plan();
  }
  function submitted(e) {
    var form = e.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("data-outbox")) return;
    if (form.hasAttribute("data-outbox-direct")) return;
    var submitter = e.submitter;
    var confirmForm = form.hasAttribute("data-outbox-confirm");
    if (!confirmForm && (!submitter || submitter.name !== "save")) return;  // «Проверить»: the server's
    if (confirmForm && form.querySelector('input[name="pin"]')) return;  // a PIN is never queued
    e.preventDefault();
    var draft = form.getAttribute("data-storage-key");
    if (draft) remove(REFUSED + draft);
    var refusalBox = document.getElementById("outbox-refusal");
    if (refusalBox) refusalBox.hidden = true;
    var pin = form.querySelector('input[name="pin"]');
    var pinTyped = !!(pin && pin.value);
    var item = queue(form, submitter);
    function native() {
      form.setAttribute("data-outbox-direct", "");
      if (form.requestSubmit) form.requestSubmit(submitter); else form.submit();
    }
    if (!item) { native(); return; }  // no room on the phone: sent as without JavaScript
    if (navigator.onLine === false) { queued(pinTyped); return; }
    // Online: sent now with what was typed (the PIN too, never kept), by this page.
    item.claimed = Date.now();
    write(PREFIX + item.id, item);
    inflight = item.id;
    var fields = fieldsOf(form, submitter);
    if (pin && pin.value) fields.push(["pin", pin.value]);
    var buttons = form.querySelectorAll("button");
    Array.prototype.forEach.call(buttons, function (b) { b.disabled = true; });
    post(item, fields).then(function (answer) {
      inflight = null;
      Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; });
      if (answer.outcome === "sent") {
        remove(PREFIX + item.id);
        if (draft) remove(draft);
        window.location.assign(nextUrl(form) || window.location.href);
      } else if (answer.outcome === "retry") {
        var kept = read(PREFIX + item.id);
        if (!kept) return;
        kept.claimed = 0;
        kept.tries = 1;
        kept.next = Date.now() + 2000 * (0.5 + Math.random());
        write(PREFIX + item.id, kept);
        queued(pinTyped);
      } else {
        // Refused (or a stale token): the form is sent as without JavaScript, and the
        // server's page shows why, with everything typed.
        remove(PREFIX + item.id);
        native();
      }
    });
  }

  /* The page is left while it sends (the phone opens another page): its request is cut off,
     so its claim is given back, and the next page of the phone sends the item at once instead
     of waiting out CLAIM_MS. Sent twice at worst, which the server records once. */
  function release() {
    if (!inflight) return;
    var kept = read(PREFIX + inflight);
    inflight = null;
    if (!kept || !kept.claimed) return;
    kept.claimed = 0;
    kept.next = 0;
    write(PREFIX + kept.id, kept);
  }

  window.PreferenceOutbox = { flush: flush, items: items };

  document.addEventListener("DOMContentLoaded", function () {
    panel = document.getElementById("outbox");
    var scorer = document.querySelector("form#scorer[data-storage-key]");
    if (scorer && panel && panel.hasAttribute("data-form-label")) {
      scorer.setAttribute("data-outbox", "");
      scorer.setAttribute("data-outbox-label", panel.getAttribute("data-form-label"));
      scorer.setAttribute("data-outbox-next", panel.getAttribute("data-form-next"));
      scorer.setAttribute("data-outbox-saved", panel.getAttribute("data-form-saved"));
      scorer.setAttribute("data-outbox-form", window.location.pathname + window.location.search);
      if (scorer.hasAttribute("data-fresh")) showRefusal(scorer);
    }
    document.addEventListener("submit", submitted);
    window.addEventListener("online", function () {
      // Every item is due again at once; the phones of a hall spread their first sends.
      items().forEach(function (it) { it.next = 0; it.claimed = 0; write(PREFIX + it.id, it); });
      clearTimeout(timer);
      timer = setTimeout(flush, Math.random() * ONLINE_SPREAD_MS);
    });
    window.addEventListener("offline", render);
    window.addEventListener("pagehide", release);
    window.addEventListener("storage", function (e) {
      if (e.key && (e.key.indexOf(PREFIX) === 0 || e.key.indexOf(REFUSED) === 0)) render();
    });
    render();
    flush();
  });
})();
