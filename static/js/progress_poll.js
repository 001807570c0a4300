// A progress page that follows work on the workers (an admin's import, a re-check). While
// the work runs, the page's [data-progress] region is fetched again every data-every seconds
// and replaced in place: no reload, so the reader keeps their place and focus, and
// "Pause updates" stops it (a page may not change itself on a timer the reader cannot turn
// off). A change of the status line is said in a polite live region that stays in place: a
// screen reader hears "Done", not every count. Without scripts the page says to reload it.
(function () {
  "use strict";
  function start(region) {
    var every = (parseFloat(region.getAttribute("data-every")) || 2) * 1000;
    var pause = document.querySelector("[data-progress-pause]");
    var say = document.querySelector("[data-progress-say]");
    function status() {
      var line = region.querySelector("[data-progress-status]");
      return line ? line.textContent.trim() : "";
    }
    var said = status();
    var timer = null;
    var busy = false;  // a fetch on its way
    var paused = false;
    function running() { return region.getAttribute("data-running") === "true"; }
    function settle() {
      var now = status();
      if (say && now !== said) { say.textContent = now; said = now; }
      if (!running()) {
        if (pause) pause.hidden = true;
        return;
      }
      if (!paused && !busy && timer === null) timer = window.setTimeout(tick, every);
    }
    function done() { busy = false; settle(); }
    function tick() {
      timer = null;
      if (busy) return;
      busy = true;
      window.fetch(window.location.href, {credentials: "same-origin", headers: {Accept: "text/html"}})
        .then(function (answer) { return answer.ok ? answer.text() : Promise.reject(answer.status); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(region.id);
          if (!fresh) {
            // Another page came back (signed out: the sign-in page): stop, and say so.
            busy = false;
            if (pause) pause.hidden = true;
            var stopped = document.createElement("p");
            stopped.className = "errornote";
            stopped.setAttribute("data-progress-stopped", "");
            stopped.textContent = "This page stopped updating: reload it to see the progress.";
            region.appendChild(stopped);
            if (say) say.textContent = stopped.textContent;
            return;
          }
          region.innerHTML = fresh.innerHTML;
          region.setAttribute("data-running", fresh.getAttribute("data-running") || "false");
          done();
        })
        .catch(done);  // a failed fetch (the site restarting) is tried again
    }
    if (pause) {
      pause.hidden = !running();
      pause.addEventListener("click", function () {
        paused = !paused;
        pause.textContent = paused ? "Resume updates" : "Pause updates";
        pause.setAttribute("aria-pressed", paused ? "true" : "false");
        if (paused && timer !== null) { window.clearTimeout(timer); timer = null; }
        if (!paused) tick();
      });
    }
    settle();
  }
  function ready() { document.querySelectorAll("[data-progress]").forEach(start); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
