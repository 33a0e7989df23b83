/* The table's scorer form keeps what was typed on the phone (localStorage) until the sheet
   is saved, and refuses to send while the phone is offline, so a lost connection loses
   nothing. Sending twice records once (the server compares the results). */
(function () {
  "use strict";
  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.type !== "hidden" && el.type !== "submit" && el.name !== "csrfmiddlewaretoken";
    });
  }
  function save(form, key) {
    var data = {};
    fields(form).forEach(function (el) {
      if (el.type === "radio") { if (el.checked) data[el.name] = el.value; }
      else data[el.name] = el.value;
    });
    try { localStorage.setItem(key, JSON.stringify(data)); } catch (e) {}
  }
  function restore(form, key) {
    var raw = null;
    try { raw = localStorage.getItem(key); } catch (e) {}
    if (!raw) return;
    var data = JSON.parse(raw);
    fields(form).forEach(function (el) {
      if (!(el.name in data)) return;
      if (el.type === "radio") { if (el.value === data[el.name] && !form.querySelector('[name="' + el.name + '"]:checked')) el.checked = true; }
      else if (!el.value) el.value = data[el.name];
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var page = document.getElementById("table-page");
    var saved = page && page.getAttribute("data-saved-key");
    if (saved) { try { localStorage.removeItem(saved); } catch (e) {} }
    var form = document.querySelector("form[data-storage-key]");
    if (!form) return;
    var key = form.getAttribute("data-storage-key");
    restore(form, key);
    form.addEventListener("input", function () { save(form, key); });
    form.addEventListener("change", function () { save(form, key); });
    form.addEventListener("submit", function (e) {
      save(form, key);
      if (navigator.onLine === false) {
        e.preventDefault();
        document.getElementById("offline-note").hidden = false;
      }
    });
  });
})();
