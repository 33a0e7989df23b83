/* The table's scorer form keeps what was typed on the phone (localStorage) until the sheet
   is saved, and does not send while the phone is offline, so a lost connection loses
   nothing: the page says so while the connection is down (and stops saying it when it is
   back), and the form opened again takes back every field of the draft. Sending twice
   records once (the server compares the results). */
(function () {
  "use strict";
  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      // Never the PIN: the draft stays on a phone the table shares.
      return el.name && el.type !== "hidden" && el.type !== "submit" && el.type !== "password" &&
        el.name !== "csrfmiddlewaretoken" && el.name !== "pin";
    });
  }
  function read(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function save(form, key) {
    var data = {};
    fields(form).forEach(function (el) {
      if (el.type === "checkbox") {
        // A group of boxes of one name (the talon's cards) keeps every box ticked.
        if (!(el.name in data)) data[el.name] = [];
        if (el.checked) data[el.name].push(el.value);
      }
      else if (el.type === "radio") { if (el.checked) data[el.name] = el.value; }
      else data[el.name] = el.value;
    });
    try { localStorage.setItem(key, JSON.stringify(data)); } catch (e) {}
  }
  /* A form shown fresh takes the draft whole: the server's defaults (e.g. the pre-selected
     «nobody: passed out») must not win over what was typed. Only who is entering stays as
     the page says when it names him. */
  function restore(form, key) {
    var data = read(key);
    if (!data) return;
    var named = form.querySelector('[name="as"]:checked');
    fields(form).forEach(function (el) {
      if (!(el.name in data) || (named && el.name === "as")) return;
      if (el.type === "checkbox") el.checked = [].concat(data[el.name]).indexOf(el.value) >= 0;
      else if (el.type === "radio") el.checked = el.value === data[el.name];
      else el.value = data[el.name];
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var page = document.getElementById("table-page");
    var saved = page && page.getAttribute("data-saved-key");
    if (saved) { try { localStorage.removeItem(saved); } catch (e) {} }
    var form = document.querySelector("form[data-storage-key]");
    if (!form) return;
    var key = form.getAttribute("data-storage-key");
    // A form sent back by the server holds what was just typed: that is the draft now.
    if (form.hasAttribute("data-fresh")) restore(form, key); else save(form, key);
    var note = document.getElementById("offline-note");
    function connection() { if (note) note.hidden = navigator.onLine !== false; }
    window.addEventListener("offline", connection);
    window.addEventListener("online", connection);
    connection();
    form.addEventListener("input", function () { save(form, key); });
    form.addEventListener("change", function () { save(form, key); });
    form.addEventListener("submit", function (e) {
      save(form, key);
      if (navigator.onLine === false) {
        e.preventDefault();
        connection();
        if (note) note.focus();
      }
    });
  });
})();
