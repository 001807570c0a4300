// An admin add page whose fields depend on the game (a card's attribute fields on its game
// and kind, a rule set's formats and expansions on its game): the page reloads when one of
// them changes, keeping what was already typed (every single-valued field, and a card's
// attribute checkboxes) in the address so the new form starts from it.
(function () {
  "use strict";
  if (!location.pathname.endsWith("/add/")) return;
  var game = document.getElementById("id_game");
  var form = game && game.form;
  if (!form) return;
  function reload() {
    var params = new URLSearchParams();
    var multi = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "file") return;
      if (el.name.indexOf("-") !== -1 || el.name.charAt(0) === "_") return; // inlines, buttons
      if (el.type === "select-multiple") return; // chosen for the game before: not kept
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return;
      if (el.type === "checkbox" && el.name.indexOf("attr__") === 0) { // a yes/no attribute
        (multi[el.name] = multi[el.name] || []).push(el.value);
        return;
      }
      if (el.value !== "") params.set(el.name, el.value);
    });
    Object.keys(multi).forEach(function (name) { params.set(name, multi[name].join(",")); });
    location.search = params.toString();
  }
  ["id_game", "id_kind"].forEach(function (id) {
    var el = document.getElementById(id);
    if (el) el.addEventListener("change", reload);
  });
})();
