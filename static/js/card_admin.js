// The card admin's add page: the attribute fields depend on the game and the kind, so the
// page reloads when either changes, keeping what was already typed (name, faction, cost,
// text and every attribute field) in the address so the new form starts from it.
(function () {
  "use strict";
  if (!location.pathname.endsWith("/add/")) return;
  function reload() {
    var form = document.getElementById("card_form");
    var params = new URLSearchParams();
    if (!form) return;
    var multi = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "file") return;
      if (el.name.indexOf("-") !== -1 || el.name.charAt(0) === "_") return; // inlines, buttons
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
