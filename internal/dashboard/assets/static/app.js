// bourdon dashboard: live updates without reloading the page.
// A page marked data-live listens to /ui/events; on each change it fetches
// itself again and swaps its <main>, unless the person is typing in a form.
(function () {
  "use strict";
  var status = function (text) {
    var el = document.getElementById("live-status");
    if (el) { el.textContent = text; }
  };
  if (!document.body || !document.body.dataset.live || !window.EventSource) { return; }
  var pending = false, busy = false;
  var refresh = function () {
    var active = document.activeElement;
    if (active && active.form && active.value) { pending = true; return; }
    if (busy) { pending = true; return; }
    busy = true;
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main"), main = document.getElementById("main");
        if (fresh && main) {
          main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes));
          document.body.dataset.updated = String(Date.now());
        }
        status("updated " + new Date().toLocaleTimeString());
      })
      .catch(function () { status("update failed"); })
      .then(function () {
        busy = false;
        if (pending) { pending = false; refresh(); }
      });
  };
  var events = new EventSource("/ui/events");
  events.addEventListener("ready", function () { status("live"); document.body.dataset.liveReady = "1"; });
  events.addEventListener("change", refresh);
  events.onerror = function () { status("reconnecting"); };
  document.addEventListener("focusout", function () { if (pending) { pending = false; refresh(); } });
})();
