/* The matrix on a phone (below 40rem, where each rule is a card): each group of rules
   folds behind a button naming it and its number of rules, and the table of differences
   behind one button, so that the page is a short list of groups rather than every card
   and every link at once. A group opens by its button, or by itself when the address
   names a rule or a group in it (matrix.html#rule-hands-favori). Wider, or without
   JavaScript, every rule is shown as before. */
(function () {
  "use strict";
  var narrow = window.matchMedia("(max-width: 40rem)");

  function toggle(button, folded, target) {
    button.setAttribute("aria-expanded", folded ? "false" : "true");
    target.classList.toggle("is-folded", folded);
  }

  function button(text, target) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.setAttribute("aria-expanded", "false");
    b.addEventListener("click", function () {
      toggle(b, b.getAttribute("aria-expanded") === "true", target);
    });
    return b;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var tables = document.querySelectorAll("table.matrix");
    if (!tables.length) return;
    var groups = [];
    tables.forEach(function (table) {
      var grouped = false;
      Array.prototype.forEach.call(table.tBodies, function (body) {
        var head = body.querySelector("tr.group-row th");
        var label = head && head.querySelector(".group-label");
        if (!label) return;
        grouped = true;
        var rules = body.rows.length - 1;
        var b = button(label.textContent + " (" + rules + " rule" + (rules === 1 ? "" : "s") + ")", body);
        b.className = "group-toggle";
        head.appendChild(b);
        groups.push({ body: body, button: b });
      });
      var wrap = table.closest(".matrix-wrap");
      if (!grouped && wrap && table.tBodies.length) {
        var rows = table.tBodies[0].rows.length;
        var b = button("Show the " + rows + " rules, every system", wrap);
        b.className = "table-toggle";
        wrap.parentNode.insertBefore(b, wrap);
        groups.push({ body: wrap, button: b });
      }
    });
    var fold = function () {
      groups.forEach(function (g) { toggle(g.button, narrow.matches, g.body); });
      open();
    };
    // Open the group that holds the element the address names.
    var open = function () {
      var id = decodeURIComponent(window.location.hash.slice(1));
      var target = id && document.getElementById(id);
      if (!target) return;
      groups.forEach(function (g) {
        if (g.body.contains(target)) {
          toggle(g.button, false, g.body);
          target.scrollIntoView();
        }
      });
    };
    fold();
    window.addEventListener("hashchange", open);
    if (narrow.addEventListener) narrow.addEventListener("change", fold);
  });
})();
